package dev.llmops.serving.demo.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The Tables kube-apiserver prints pods, events and nodes with (its printers for those kinds, wide columns at
 * priority 1), so kubectl get shows READY and STATUS, LAST SEEN and MESSAGE, STATUS and ROLES instead of NAME and AGE.
 */
final class BuiltInTables {

    private static final String NONE = "<none>";
    private static final String STRING = "string";

    private BuiltInTables() {}

    /** The Table columns of a core v1 resource, empty for the kinds printed from their plain list. */
    static Optional<TableColumns> of(String plural, Instant now) {
        return switch (plural) {
            case "pods" -> Optional.of(new Pods(now));
            case "events" -> Optional.of(new Events(now));
            case "nodes" -> Optional.of(new Nodes(now));
            default -> Optional.empty();
        };
    }

    /** NAME READY STATUS RESTARTS AGE, then IP, NODE, NOMINATED NODE and READINESS GATES. */
    private record Pods(Instant now) implements TableColumns {

        @Override
        public ArrayNode definitions() {
            return JSON.createArrayNode()
                    .add(name(0))
                    .add(TableColumns.column("Ready", STRING, "", "The aggregate readiness state of this pod.", 0))
                    .add(TableColumns.column("Status", STRING, "", "The aggregate status of the containers.", 0))
                    .add(TableColumns.column("Restarts", STRING, "", "The number of container restarts.", 0))
                    .add(age())
                    .add(TableColumns.column("IP", STRING, "", "The pod's IP address.", 1))
                    .add(TableColumns.column("Node", STRING, "", "The node the pod is bound to.", 1))
                    .add(TableColumns.column("Nominated Node", STRING, "", "The node nominated for the pod.", 1))
                    .add(TableColumns.column("Readiness Gates", STRING, "", "The pod's readiness gates.", 1));
        }

        @Override
        public ArrayNode cells(JsonNode pod) {
            JsonNode status = pod.path("status");
            String reason = status.path("reason").asText("");
            if (reason.isEmpty()) {
                reason = status.path("phase").asText("");
            }
            int restarts = 0;
            Instant lastRestart = null;
            boolean initializing = false;
            int initContainers = pod.path("spec").path("initContainers").size();
            int index = 0;
            for (JsonNode container : status.path("initContainerStatuses")) {
                restarts += container.path("restartCount").asInt(0);
                lastRestart = later(lastRestart, container);
                JsonNode terminated = container.path("state").path("terminated");
                String waiting =
                        container.path("state").path("waiting").path("reason").asText("");
                if (!terminated.isMissingNode() && terminated.path("exitCode").asInt(0) == 0) {
                    index++;
                    continue;
                }
                if (!terminated.isMissingNode()) {
                    reason = "Init:" + terminatedReason(terminated);
                } else if (!waiting.isEmpty() && !"PodInitializing".equals(waiting)) {
                    reason = "Init:" + waiting;
                } else {
                    reason = "Init:" + index + "/" + initContainers;
                }
                initializing = true;
                break;
            }
            int ready = 0;
            if (!initializing) {
                boolean running = false;
                List<JsonNode> containers = new ArrayList<>();
                status.path("containerStatuses").forEach(containers::add);
                for (int i = containers.size() - 1; i >= 0; i--) {
                    JsonNode container = containers.get(i);
                    restarts += container.path("restartCount").asInt(0);
                    lastRestart = later(lastRestart, container);
                    JsonNode state = container.path("state");
                    String waiting = state.path("waiting").path("reason").asText("");
                    if (!waiting.isEmpty()) {
                        reason = waiting;
                    } else if (!state.path("terminated").isMissingNode()) {
                        reason = terminatedReason(state.path("terminated"));
                    } else if (container.path("ready").asBoolean(false) && state.has("running")) {
                        running = true;
                        ready++;
                    }
                }
                if ("Completed".equals(reason) && running) {
                    reason = hasReadyCondition(status) ? "Running" : "NotReady";
                }
            }
            String phase = status.path("phase").asText("");
            if (pod.path("metadata").has("deletionTimestamp")
                    && !"Succeeded".equals(phase)
                    && !"Failed".equals(phase)) {
                reason = "Terminating";
            }
            String restartText = restarts != 0 && lastRestart != null
                    ? restarts + " (" + HumanAge.of(Duration.between(lastRestart, now)) + " ago)"
                    : String.valueOf(restarts);
            ArrayNode cells = JSON.createArrayNode()
                    .add(pod.path("metadata").path("name").asText())
                    .add(ready + "/" + pod.path("spec").path("containers").size())
                    .add(reason)
                    .add(restartText)
                    .add(since(pod.path("metadata").path("creationTimestamp"), now));
            cells.add(orNone(status.path("podIPs")
                    .path(0)
                    .path("ip")
                    .asText(status.path("podIP").asText(""))));
            cells.add(orNone(pod.path("spec").path("nodeName").asText("")));
            cells.add(orNone(status.path("nominatedNodeName").asText("")));
            cells.add(readinessGates(pod));
            return cells;
        }

        private static String terminatedReason(JsonNode terminated) {
            String reason = terminated.path("reason").asText("");
            if (!reason.isEmpty()) {
                return reason;
            }
            int signal = terminated.path("signal").asInt(0);
            return signal != 0
                    ? "Signal:" + signal
                    : "ExitCode:" + terminated.path("exitCode").asInt(0);
        }

        private static Instant later(Instant current, JsonNode container) {
            Optional<Instant> finished =
                    instant(container.path("lastState").path("terminated").path("finishedAt"));
            return finished.filter(time -> current == null || time.isAfter(current))
                    .orElse(current);
        }

        private static boolean hasReadyCondition(JsonNode status) {
            for (JsonNode condition : status.path("conditions")) {
                if ("Ready".equals(condition.path("type").asText())
                        && "True".equals(condition.path("status").asText())) {
                    return true;
                }
            }
            return false;
        }

        private static String readinessGates(JsonNode pod) {
            JsonNode gates = pod.path("spec").path("readinessGates");
            if (gates.isEmpty()) {
                return NONE;
            }
            int passed = 0;
            for (JsonNode gate : gates) {
                for (JsonNode condition : pod.path("status").path("conditions")) {
                    if (condition
                            .path("type")
                            .asText()
                            .equals(gate.path("conditionType").asText())) {
                        passed += "True".equals(condition.path("status").asText()) ? 1 : 0;
                        break;
                    }
                }
            }
            return passed + "/" + gates.size();
        }
    }

    /**
     * LAST SEEN TYPE REASON OBJECT MESSAGE, and at priority 1 SUBOBJECT, SOURCE, FIRST SEEN, COUNT and NAME, in
     * kube-apiserver's order.
     */
    private record Events(Instant now) implements TableColumns {

        @Override
        public ArrayNode definitions() {
            return JSON.createArrayNode()
                    .add(TableColumns.column("Last Seen", STRING, "", "When the event last occurred.", 0))
                    .add(TableColumns.column("Type", STRING, "", "Normal or Warning.", 0))
                    .add(TableColumns.column("Reason", STRING, "", "Why the event happened.", 0))
                    .add(TableColumns.column("Object", STRING, "", "The object the event is about.", 0))
                    .add(TableColumns.column("Subobject", STRING, "", "The field of the object.", 1))
                    .add(TableColumns.column("Source", STRING, "", "The component reporting the event.", 1))
                    .add(TableColumns.column("Message", STRING, "", "What happened.", 0))
                    .add(TableColumns.column("First Seen", STRING, "", "When the event first occurred.", 1))
                    .add(TableColumns.column("Count", STRING, "", "How often the event occurred.", 1))
                    .add(name(1));
        }

        @Override
        public ArrayNode cells(JsonNode event) {
            Optional<Instant> first = instant(event.path("firstTimestamp")).or(() -> instant(event.path("eventTime")));
            Optional<Instant> last = instant(event.path("lastTimestamp")).or(() -> first);
            long count = event.path("count").asLong(0);
            JsonNode series = event.path("series");
            if (!series.isMissingNode() && !series.isNull()) {
                last = instant(series.path("lastObservedTime"));
                count = series.path("count").asLong(0);
            } else if (count == 0) {
                count = 1;
            }
            JsonNode involved = event.path("involvedObject");
            String kind = involved.path("kind").asText("").toLowerCase(Locale.ROOT);
            String name = involved.path("name").asText("");
            JsonNode source = event.path("source");
            String component = source.path("component")
                    .asText(event.path("reportingComponent").asText(""));
            String host =
                    source.path("host").asText(event.path("reportingInstance").asText(""));
            return JSON.createArrayNode()
                    .add(last.map(this::ago).orElse("<unknown>"))
                    .add(event.path("type").asText(""))
                    .add(event.path("reason").asText(""))
                    .add(name.isEmpty() ? kind : kind + "/" + name)
                    .add(involved.path("fieldPath").asText(""))
                    .add(host.isEmpty() ? component : component + ", " + host)
                    .add(event.path("message").asText("").strip())
                    .add(first.map(this::ago).orElse("<unknown>"))
                    .add(count)
                    .add(event.path("metadata").path("name").asText());
        }

        private String ago(Instant time) {
            return HumanAge.of(Duration.between(time, now));
        }
    }

    /** NAME STATUS ROLES AGE VERSION, then the addresses, OS image, kernel and container runtime. */
    private record Nodes(Instant now) implements TableColumns {

        private static final String ROLE_PREFIX = "node-role.kubernetes.io/";

        @Override
        public ArrayNode definitions() {
            return JSON.createArrayNode()
                    .add(name(0))
                    .add(TableColumns.column("Status", STRING, "", "The status of the node.", 0))
                    .add(TableColumns.column("Roles", STRING, "", "The roles of the node.", 0))
                    .add(age())
                    .add(TableColumns.column("Version", STRING, "", "The kubelet version.", 0))
                    .add(TableColumns.column("Internal-IP", STRING, "", "The node's internal address.", 1))
                    .add(TableColumns.column("External-IP", STRING, "", "The node's external address.", 1))
                    .add(TableColumns.column("OS-Image", STRING, "", "The node's OS image.", 1))
                    .add(TableColumns.column("Kernel-Version", STRING, "", "The node's kernel version.", 1))
                    .add(TableColumns.column("Container-Runtime", STRING, "", "The container runtime.", 1));
        }

        @Override
        public ArrayNode cells(JsonNode node) {
            JsonNode status = node.path("status");
            String ready = "Unknown";
            for (JsonNode condition : status.path("conditions")) {
                if ("Ready".equals(condition.path("type").asText())) {
                    ready = "True".equals(condition.path("status").asText()) ? "Ready" : "NotReady";
                }
            }
            if (node.path("spec").path("unschedulable").asBoolean(false)) {
                ready += ",SchedulingDisabled";
            }
            List<String> roles = new ArrayList<>();
            node.path("metadata").path("labels").fieldNames().forEachRemaining(label -> {
                if (label.startsWith(ROLE_PREFIX) && label.length() > ROLE_PREFIX.length()) {
                    roles.add(label.substring(ROLE_PREFIX.length()));
                }
            });
            String legacyRole = node.path("metadata")
                    .path("labels")
                    .path("kubernetes.io/role")
                    .asText("");
            if (!legacyRole.isEmpty()) {
                roles.add(legacyRole);
            }
            JsonNode info = status.path("nodeInfo");
            return JSON.createArrayNode()
                    .add(node.path("metadata").path("name").asText())
                    .add(ready)
                    .add(
                            roles.isEmpty()
                                    ? NONE
                                    : String.join(",", roles.stream().sorted().toList()))
                    .add(since(node.path("metadata").path("creationTimestamp"), now))
                    .add(info.path("kubeletVersion").asText(""))
                    .add(address(status, "InternalIP"))
                    .add(address(status, "ExternalIP"))
                    .add(orNone(info.path("osImage").asText("")))
                    .add(orNone(info.path("kernelVersion").asText("")))
                    .add(orNone(info.path("containerRuntimeVersion").asText("")));
        }

        private static String address(JsonNode status, String type) {
            for (JsonNode address : status.path("addresses")) {
                if (type.equals(address.path("type").asText())) {
                    return address.path("address").asText();
                }
            }
            return NONE;
        }
    }

    private static ObjectNode name(int priority) {
        return TableColumns.column("Name", STRING, "name", "Name of the object.", priority);
    }

    private static ObjectNode age() {
        return TableColumns.column("Age", STRING, "", "When the object was created.", 0);
    }

    private static String since(JsonNode timestamp, Instant now) {
        return instant(timestamp)
                .map(time -> HumanAge.of(Duration.between(time, now)))
                .orElse("<unknown>");
    }

    private static Optional<Instant> instant(JsonNode timestamp) {
        if (!timestamp.isTextual() || timestamp.asText().isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(timestamp.asText()).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static String orNone(String value) {
        return value.isEmpty() ? NONE : value;
    }
}
