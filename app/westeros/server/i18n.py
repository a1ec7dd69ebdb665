"""UI languages: gettext catalogs (Babel), the language of a request, the jinja2 environments
with the ``i18n`` extension and the JS catalog served at ``/i18n/<lang>.json``.

English is the source language (no catalog needed). Catalogs are
``<folder>/<lang>/LC_MESSAGES/westeros.po`` (the committed source, read with Babel at run time,
so a fresh ``pip install .`` and the frozen app need no build step) or a compiled
``westeros.mo`` beside it (preferred when present); the folders are the game's own
(``westeros/locale``) followed by the plugins' (``register_translations``), earlier folders
winning on equal messages. Extraction and update of every catalog (the game's and each
plugin's): ``python -m westeros.server.i18n_catalog`` (see that module and ``babel.cfg``)."""

from __future__ import annotations

import gettext
import io
import re
import threading
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError, negotiate_locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from jinja2 import BytecodeCache, Environment, FileSystemLoader, select_autoescape

from . import escaping

DOMAIN = "westeros"
SOURCE_LANGUAGE = "en"
LANG_COOKIE = "westeros_lang"
_LANG = re.compile(r"^[a-z]{2,3}(?:_[A-Z]{2}|_[A-Z][a-z]{3})?$")


def N_(message: str) -> str:
    """Mark ``message`` for extraction only; it is translated where it is shown."""
    return message


def normalise(lang: str | None) -> str | None:
    """``lang`` in catalog form (``pt-br`` → ``pt_BR``), or None if it is not a language tag."""
    if not lang or len(lang) > 12:
        return None
    parts = lang.replace("-", "_").split("_")
    code = parts[0].lower()
    if len(parts) > 1 and len(parts[1]) == 2:
        code += "_" + parts[1].upper()
    elif len(parts) > 1 and len(parts[1]) == 4:
        code += "_" + parts[1].capitalize()
    elif len(parts) > 1:
        return None
    return code if _LANG.match(code) else None


class Catalogs:
    """The translations found in ``folders`` (earlier folders win), loaded once per language.
    The catalogs ship with the game and its plugins, so the languages are read once, here."""

    def __init__(self, folders: Iterable[str | Path]) -> None:
        self.folders = tuple(Path(f) for f in folders)
        self._cache: dict[str, gettext.NullTranslations] = {}
        self._lock = threading.Lock()
        found = {SOURCE_LANGUAGE}
        for folder in self.folders:
            if folder.is_dir():
                found.update(
                    p.parent.parent.name
                    for p in folder.glob(f"*/LC_MESSAGES/{DOMAIN}.[mp]o")
                    if normalise(p.parent.parent.name) == p.parent.parent.name
                )
        self._languages = tuple(sorted(found))

    def languages(self) -> list[str]:
        """Every language with a catalog, plus English, sorted."""
        return list(self._languages)

    def translations(self, lang: str) -> gettext.NullTranslations:
        """The merged catalog of ``lang`` (NullTranslations for English or an unknown one)."""
        with self._lock:
            cached = self._cache.get(lang)
            if cached is None:
                cached = self._load(lang)
                self._cache[lang] = cached
            return cached

    def _load(self, lang: str) -> gettext.NullTranslations:
        merged: Translations | None = None
        for folder in reversed(self.folders):  # later folders first, so earlier ones win
            found = load_folder(folder, lang)
            if found is None:
                continue
            merged = found if merged is None else merged.merge(found)
        return merged if merged is not None else gettext.NullTranslations()

    def messages(self, lang: str) -> dict[str, Any]:
        """The JS catalog of ``lang``: {msgid: translation} and, for plural messages,
        {singular msgid: [forms]} (the format ``frontend/static/js/i18n.js`` reads)."""
        catalog: Mapping[Any, str] = getattr(self.translations(lang), "_catalog", {})
        out: dict[str, Any] = {}
        plurals: dict[str, dict[int, str]] = {}
        for key, value in catalog.items():
            if isinstance(key, tuple):
                plurals.setdefault(key[0], {})[key[1]] = value
            elif key and value:
                out[key] = value
        for msgid, forms in plurals.items():
            out[msgid] = [forms[i] for i in sorted(forms)]
        return dict(sorted(out.items()))

    def negotiate(self, accept_language: str | None) -> str | None:
        """The best available language for an ``Accept-Language`` header, if any."""
        if not accept_language:
            return None
        wanted = []
        for part in accept_language.split(","):
            tag = normalise(part.split(";")[0].strip())
            if tag:
                wanted.append(tag)
        wanted = [SCRIPT_ALIASES.get(tag, tag) for tag in wanted]
        available = self.languages()
        found = negotiate_locale(wanted, available, sep="_")
        if found is None:  # "zh" alone: the first catalog of that language
            codes = {code.split("_")[0]: code for code in reversed(available)}
            found = next((codes[w.split("_")[0]] for w in wanted if w.split("_")[0] in codes), None)
        return found


LANGUAGE_NAMES = {"en": "English", "zh_CN": "简体中文", "zh_TW": "繁體中文"}
"""The names of the languages the app ships, as players know them (Babel spells the Chinese
ones longer, and loading its locale data for them is a tenth of a second at start-up); another
catalog's language is named by Babel."""
SCRIPT_ALIASES = {"zh_Hant": "zh_TW", "zh_HK": "zh_TW", "zh_MO": "zh_TW", "zh_Hans": "zh_CN"}
"""Browser tags that name a Chinese script or region without a catalog of its own: Traditional
(Hong Kong, Macau) reads the Taiwan catalog, Simplified the mainland one."""


def language_name(code: str) -> str:
    """A language's name in itself ("English", "简体中文"), as a switch shows it."""
    if code in LANGUAGE_NAMES:
        return LANGUAGE_NAMES[code]
    try:
        locale = Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        return code
    name = locale.get_display_name(locale) or code
    return name[:1].upper() + name[1:]


def load_folder(folder: Path, lang: str) -> Translations | None:
    """The catalog of ``lang`` in one folder: its ``.mo`` if compiled, else its ``.po``
    (untranslated and fuzzy entries fall back to English), else None."""
    messages = folder / lang / "LC_MESSAGES"
    if (messages / f"{DOMAIN}.mo").is_file():
        found = Translations.load(str(folder), [lang], domain=DOMAIN)
        return found if isinstance(found, Translations) else None
    source = messages / f"{DOMAIN}.po"
    if not source.is_file():
        return None
    with source.open("rb") as handle:
        catalog = read_po(handle, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def choose_language(
    catalogs: Catalogs,
    query: str | None,
    cookie: str | None,
    accept_language: str | None,
) -> str:
    """The page language: ``?lang=``, then the language cookie, then ``Accept-Language``, then
    English; only languages with a catalog are chosen."""
    available = catalogs.languages()
    for candidate in (normalise(query), normalise(cookie)):
        if candidate in available:
            return candidate
    return catalogs.negotiate(accept_language) or SOURCE_LANGUAGE


class Templates:
    """One jinja2 environment per language (autoescape on, ``i18n`` extension installed with
    that language's catalog); templates are looked up in ``folders`` in order. With a
    ``bytecode_cache`` (the desktop app's: its user cache folder) a template compiled on an
    earlier start is loaded instead of compiled again."""

    def __init__(
        self,
        folders: Sequence[str | Path],
        catalogs: Catalogs,
        bytecode_cache: BytecodeCache | None = None,
    ) -> None:
        self.folders = [str(f) for f in folders]
        self.catalogs = catalogs
        self.bytecode_cache = bytecode_cache
        self._envs: dict[str, Environment] = {}
        self._lock = threading.Lock()
        self.globals: dict[str, Any] = {}

    def env(self, lang: str) -> Environment:
        """The environment for ``lang``."""
        with self._lock:
            env = self._envs.get(lang)
            if env is None:
                env = Environment(
                    loader=FileSystemLoader(self.folders),
                    autoescape=select_autoescape(default=True, default_for_string=True),
                    extensions=["jinja2.ext.i18n"],
                    bytecode_cache=self.bytecode_cache,
                )
                escaping.install(env, self.catalogs.translations(lang))  # text, not markup
                env.globals.update(self.globals)
                env.globals["ui_languages"] = self.choices
                self._envs[lang] = env
            return env

    def choices(self) -> list[tuple[str, str]]:
        """(code, name in that language) of every UI language, for the language switch."""
        return [(code, language_name(code)) for code in self.catalogs.languages()]

    def render(self, name: str, lang: str, context: Mapping[str, Any]) -> str:
        """Render template ``name`` in ``lang``."""
        return self.env(lang).get_template(name).render(**context)
