"""Build hook: ship the board's ``frontend/`` folder (templates, scripts, styles, the map) inside
the wheel as ``westeros/frontend``, where the server looks for it when installed. Everything
else about the package is in pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

FRONTEND = Path(__file__).resolve().parent / "frontend"


class BuildPyWithFrontend(build_py):
    """build_py that also copies ``frontend/`` into the built ``westeros`` package."""

    def run(self) -> None:
        super().run()
        if FRONTEND.is_dir():
            target = Path(self.build_lib) / "westeros" / "frontend"
            shutil.copytree(FRONTEND, target, dirs_exist_ok=True)


setup(cmdclass={"build_py": BuildPyWithFrontend})
