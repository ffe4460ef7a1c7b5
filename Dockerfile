# One image for every ZDB process: migrations, worker, beat (and the API).
# The first stage builds the wheel from the sources; the image installs the pinned versions of
# requirements.lock (`make lock`), checked against their hashes, then the wheel itself without
# resolving anything again. The wheel carries the migrations (zdb._migrations): nothing of the
# source tree is needed at run time. CI installs the wheel the same way (tests/packaging).
FROM python:3.11-slim AS wheel
WORKDIR /src
COPY pyproject.toml README.md ./
COPY zdb ./zdb
COPY workers ./workers
COPY migrations ./migrations
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /dist .

FROM python:3.11-slim
# NUMBA_CACHE_DIR: the rating engine's compiled kernel, compiled once below while the image is
# built (the installed package is not the zdb user's to write; ZDB_HOME may be a volume)
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 ZDB_HOME=/var/lib/zdb NUMBA_CACHE_DIR=/opt/zdb-kernel-cache
COPY requirements.lock /tmp/requirements.lock
RUN pip install --no-cache-dir --require-hashes -r /tmp/requirements.lock
COPY --from=wheel /dist/ /tmp/dist/
RUN pip install --no-cache-dir --no-deps /tmp/dist/*.whl && pip check && rm -r /tmp/dist /tmp/requirements.lock \
    && useradd --system zdb && mkdir -p "$ZDB_HOME" "$NUMBA_CACHE_DIR" && chown zdb "$ZDB_HOME" "$NUMBA_CACHE_DIR"
USER zdb
RUN python -c "from zdb.rating.kernel import compiled; compiled().warm_up()" \
    && python -c "from zdb.compiled_replay.driver import warm_up; warm_up()"
# ZDB_HOME: beat's schedule (and an embedded database, which production does not use)
WORKDIR /var/lib/zdb
ENTRYPOINT ["zdb"]
