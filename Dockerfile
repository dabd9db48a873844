# syntax=docker/dockerfile:1
# Build stage: install the project and its dependencies into a virtual environment.
FROM python:3.11-slim AS build
WORKDIR /src
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY assets ./assets
# The postgres extra (DATABASE_URL); SimCord (the `local` extra, local play only) stays out.
RUN pip install --no-cache-dir '.[postgres]'

# Runtime stage: the virtual environment, the assets and a non-root user; data on a volume.
FROM python:3.11-slim
RUN useradd --create-home --uid 10001 tractor && mkdir /data && chown tractor /data
COPY --from=build /opt/venv /opt/venv
COPY --from=build /src/assets /app/assets
WORKDIR /app
# LOCAL_PLAY=off: without DISCORD_TOKEN the container stops with one clear line (exit 2)
# rather than serving a local game on its own loopback.
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/tractor.sqlite3 \
    TRACTOR_ASSETS=/app/assets \
    LOCAL_PLAY=off
USER tractor
VOLUME ["/data"]
# SIGTERM: the bot finishes the current writes and closes the database before it exits.
STOPSIGNAL SIGTERM
ENTRYPOINT ["tractor-bot"]
