# hostapi-sim as a container: the simulator of the three interfaces, for CI
# (a GitHub Actions service container, docker-compose). docs/simulator.md
# shows how to run it.
#
#   docker build -t hostapi-sim .
#   docker run --rm -p 127.0.0.1:8080:8080 hostapi-sim
#
# Build stage: the workspace's locked dependencies from crates.io, nothing
# else (ring's C code needs gcc and musl-dev).
FROM rust:1.95-alpine AS build
RUN apk add --no-cache gcc musl-dev
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p hostapi-sim --bin hostapi-sim \
    && cp target/release/hostapi-sim /hostapi-sim

# Run stage: the binary alone on alpine, as an unprivileged user. /certs is
# where --tls writes ca.pem; share it with the containers that call the
# simulator (a volume in docker-compose).
FROM alpine:3.22
RUN adduser -D -u 10001 sim && mkdir /certs /state && chown sim /certs /state
COPY --from=build /hostapi-sim /usr/local/bin/hostapi-sim
USER sim
EXPOSE 8080
VOLUME ["/certs", "/state"]
# Listening on every address of the container: the control API (/_sim/*)
# then requires its token, given as HOSTAPI_SIM_CONTROL_TOKEN or printed at
# start; GET /_sim/health answers without one, for health checks.
ENTRYPOINT ["hostapi-sim", "--host", "0.0.0.0", "--port", "8080"]
HEALTHCHECK --interval=2s --timeout=2s --retries=15 \
    CMD wget -q -O /dev/null http://127.0.0.1:8080/_sim/health || exit 1
