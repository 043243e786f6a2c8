# Shared by the benchmark scripts: builds the operator package and the benchmark classes (e2e profile), writes the
# test classpath, and prints the machine the figures come from.
set -euo pipefail
cd "$(dirname "$0")/../.."

hack/controlplane/build.sh >/dev/null
mkdir -p target/perf
mvn -B -q -Pe2e package -DskipTests \
  dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/perf/classpath.txt
PERF_CLASSPATH="target/test-classes:target/classes:$(cat target/perf/classpath.txt)"
# The benchmarks run the operator they measure as a process of their own; the benchmark pods of the kubelet stand-in
# run the packaged runner as processes too, chosen explicitly (the end-to-end suite runs both from the image).
PERF_JAVA_FLAGS=(-De2e.projectDir=. -De2e.runtime=process -Djava.util.logging.manager=org.jboss.logmanager.LogManager)

echo "nproc: $(nproc); CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
