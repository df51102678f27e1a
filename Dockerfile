# KnowZero: one image for the API workers and the embedding workers (compose.yaml).
# The models ship inside the Python packages; nothing is downloaded when a container runs.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install --no-cache-dir ".[postgres]" && useradd --create-home --uid 10001 knowzero && mkdir /data && chown knowzero /data
USER knowzero
ENV KNOWZERO_DATA_DIR=/data OMP_NUM_THREADS=1 OMP_WAIT_POLICY=PASSIVE
EXPOSE 8000
CMD ["knowzero", "serve", "--host", "0.0.0.0", "--port", "8000"]
