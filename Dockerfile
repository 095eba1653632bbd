# syntax=docker/dockerfile:1
# tenet as a container image: the static binary on a distroless base, run
# as a non-root user (docs/release.md, "Container image"). release_test.go
# checks these invariants: the builder's Go is go.mod's, the binary is
# static, the final stage is static and non-root.
#
#   docker build --build-arg VERSION=v0.3.0 -t tenet .
#   docker run --rm -v "$PWD:/work" --user "$(id -u):$(id -g)" tenet check contracts/x

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# VERSION is what tenet --version prints; empty, the build information says
# "(devel)" (the build context has no .git: .dockerignore).
ARG VERSION=
RUN CGO_ENABLED=0 go build -trimpath \
    -ldflags "-s -w -X github.com/tenetlang/tenet/internal/buildinfo.linked=${VERSION}" \
    -o /out/tenet ./cmd/tenet

# distroless/static: no shell, no libc, a /tmp (tenet spools - and spills
# sorts there) and the nonroot user (uid 65532) with a home for the
# compile cache.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tenet /usr/local/bin/tenet
USER nonroot:nonroot
WORKDIR /work
ENTRYPOINT ["tenet"]
