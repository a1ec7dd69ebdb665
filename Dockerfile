# The Westeros online server (docs/online.md). Not built here: no Docker engine was at hand.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /srv/westeros
COPY pyproject.toml setup.py MANIFEST.in README.md ./
COPY app ./app
COPY plugins ./plugins
COPY frontend ./frontend
RUN pip install --no-cache-dir ".[online]" \
    && useradd --system --create-home westeros
USER westeros
EXPOSE 8765
CMD ["westeros", "server", "--host", "0.0.0.0", "--port", "8765"]
