# One image for every ZDB process: migrations, worker, beat (and the API).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY zdb ./zdb
COPY workers ./workers
COPY migrations ./migrations
# Installed in place (-e): ``zdb db upgrade`` reads the migrations beside the package
# (``zdb.migrate``), which a wheel installed into site-packages would not carry.
RUN pip install --no-cache-dir -e . && useradd --system zdb && mkdir var && chown zdb var
USER zdb
ENTRYPOINT ["zdb"]
