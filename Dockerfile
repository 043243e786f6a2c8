# One image for everything the project runs in a cluster: without arguments it is the operator; with
# `bench ...` it is the benchmark runner the operator's Jobs start; `report`, `probe` and the other tools work too.
#
#   docker build -t ghcr.io/llmops-dev/llm-serving-operator:0.1.0 .
#
# Without a Docker engine, hack/image/build.sh builds the same image with Jib (docs/operations.md, "Container image");
# a test holds both to the same user, working directory, environment, entry point and labels.
#
# The runtime stage runs as a numeric non-root user and writes only to java.io.tmpdir (/tmp), so it works with
# readOnlyRootFilesystem when /tmp is a mounted emptyDir, as the Helm chart does.
#
# Base images are named by tag, not yet pinned by digest: no container registry is reachable where this project is
# built and tested, so no digest could be checked against the registry. A release pins both by digest, keeping the tag
# readable (`FROM eclipse-temurin:17-jre@sha256:<digest>`), with the digests read from a connected machine:
#   docker buildx imagetools inspect eclipse-temurin:17-jre --format '{{json .Manifest.Digest}}'
#   docker buildx imagetools inspect maven:3.9-eclipse-temurin-17 --format '{{json .Manifest.Digest}}'

FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /build
COPY pom.xml ./
COPY src/main ./src/main
COPY deploy/crds ./deploy/crds
RUN --mount=type=cache,target=/root/.m2 mvn -B -ntp package -Dmaven.test.skip=true

FROM eclipse-temurin:17-jre
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="llm-serving-operator" \
      org.opencontainers.image.description="Runs SGLang LLM servers on NVIDIA Blackwell GPUs under Kubernetes and benchmarks them" \
      org.opencontainers.image.source="https://github.com/llmops-dev/llm-serving-operator" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="Apache-2.0"
WORKDIR /app
# The fast-jar layout: dependencies first, so a code change rebuilds only the last layers.
COPY --from=build /build/target/quarkus-app/lib/ /app/lib/
COPY --from=build /build/target/quarkus-app/quarkus/ /app/quarkus/
COPY --from=build /build/target/quarkus-app/app/ /app/app/
COPY --from=build /build/target/quarkus-app/quarkus-run.jar /app/quarkus-run.jar
ENV HOME=/tmp
# Memory, as measured at 1000 ModelServers (docs/performance.md): the heap gets half the container's limit, the other
# half holds metaspace, code, threads and malloc; the serial collector keeps the heap compact and its own overhead
# small; two malloc arenas stop glibc from growing one per thread, and trimming the native heap every 5 s gives back
# what glibc keeps after the JIT compilers free their arenas (about 20 MiB of the soak's RSS growth; docs/performance.md).
ENV MALLOC_ARENA_MAX=2
# The JDK HTTP client completes every response on CompletableFuture's default executor, which starts a new thread per
# task when the common pool has fewer than 2 threads (pods with under 3 CPUs): at 1000 requests/s that was 1000 thread
# starts a second in the benchmark runner (docs/performance.md, open-loop accuracy).
USER 10001:10001
EXPOSE 8080
# The client compiler alone (-XX:TieredStopAtLevel=1): C2 spent half of the operator's CPU in its first minute and most
# of a benchmark's at 64 streams, and its code cache and arenas were the memory above the heap; C1's code costs the
# runner 10 % more CPU per token at 1024 streams (docs/performance.md).
ENTRYPOINT ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:MaxRAMPercentage=50.0", "-XX:+ExitOnOutOfMemoryError", "-XX:TrimNativeHeapInterval=5000", "-XX:-UsePerfData", "-Djava.io.tmpdir=/tmp", "-Djava.util.concurrent.ForkJoinPool.common.parallelism=2", "-jar", "/app/quarkus-run.jar"]
