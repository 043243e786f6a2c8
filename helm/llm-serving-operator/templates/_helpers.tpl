{{/* Chart name, shortened to the 63 characters of a DNS label. */}}
{{- define "llm-serving-operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Release-qualified name of every object of the chart. */}}
{{- define "llm-serving-operator.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else if contains (include "llm-serving-operator.name" .) .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "llm-serving-operator.name" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "llm-serving-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "llm-serving-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "llm-serving-operator.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "llm-serving-operator.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/component: operator
{{- end }}

{{- define "llm-serving-operator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "llm-serving-operator.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "llm-serving-operator.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/*
The namespaces the operator watches, comma-separated: the listed ones, or the release namespace when none is listed.
Not used with watchAllNamespaces, which rbac.yaml refuses together with a list.
*/}}
{{- define "llm-serving-operator.watchedNamespaces" -}}
{{- if .Values.watchNamespaces }}
{{- join "," .Values.watchNamespaces }}
{{- else }}
{{- .Release.Namespace }}
{{- end }}
{{- end }}

{{/*
What the controllers do in the namespaces they watch: every verb is listed, per resource. Creating and updating owned
objects is server-side apply (patch). One Secret value is read, by name (get, never list or watch): the key a
ModelServer's spec.apiKeySecret names, sent with its inference probe. Every other token reaches a pod through
secretKeyRef, which the kubelet resolves.
*/}}
{{- define "llm-serving-operator.namespacedRules" -}}
- apiGroups: ["serving.llmops.dev"]
  resources: ["modelservers"]
  verbs: ["get", "list", "watch", "create", "patch", "update", "delete"]
- apiGroups: ["serving.llmops.dev"]
  resources: ["benchmarkruns"]
  verbs: ["get", "list", "watch", "create", "patch", "delete"]
- apiGroups: ["serving.llmops.dev"]
  resources: ["servingexperiments"]
  verbs: ["get", "list", "watch", "patch"]
- apiGroups: ["serving.llmops.dev"]
  resources: ["modelservers/status"]
  verbs: ["get", "patch", "update"]
- apiGroups: ["serving.llmops.dev"]
  resources: ["benchmarkruns/status", "servingexperiments/status"]
  verbs: ["patch"]
- apiGroups: ["serving.llmops.dev"]
  resources: ["modelservers/finalizers", "benchmarkruns/finalizers", "servingexperiments/finalizers"]
  verbs: ["update"]
- apiGroups: ["apps"]
  resources: ["deployments"]
  verbs: ["get", "list", "watch", "create", "patch", "update", "delete"]
- apiGroups: ["apps"]
  resources: ["replicasets", "statefulsets"]
  verbs: ["get"]
- apiGroups: ["leaderworkerset.x-k8s.io"]
  resources: ["leaderworkersets"]
  verbs: ["get", "list", "watch", "create", "patch", "update", "delete"]
- apiGroups: [""]
  resources: ["services"]
  verbs: ["get", "list", "watch", "create", "patch", "update", "delete"]
- apiGroups: ["networking.k8s.io"]
  resources: ["networkpolicies"]
  verbs: ["get", "list", "watch", "create", "patch", "update", "delete"]
- apiGroups: [""]
  resources: ["persistentvolumeclaims"]
  verbs: ["get", "list", "watch", "create", "patch", "delete"]
- apiGroups: ["batch"]
  resources: ["jobs"]
  verbs: ["get", "list", "watch", "create", "patch"]
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list", "watch"]
- apiGroups: [""]
  resources: ["pods/status"]
  verbs: ["patch"]
- apiGroups: [""]
  resources: ["pods/log"]
  verbs: ["get"]
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create", "list"]
- apiGroups: [""]
  resources: ["configmaps"]
  verbs: ["get", "create"]
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get"]
{{- end }}

{{/*
What the controllers read cluster-wide whatever they watch: the GPU labels of the node a benchmark ran on (Nodes are
cluster-scoped, so no Role can grant it). Whether LeaderWorkerSet is installed comes from API discovery, which needs
no rule.
*/}}
{{- define "llm-serving-operator.clusterRules" -}}
- apiGroups: [""]
  resources: ["nodes"]
  verbs: ["get"]
{{- end }}

{{/* The user name the API server knows the operator by: its ServiceAccount's. */}}
{{- define "llm-serving-operator.username" -}}
{{- printf "system:serviceaccount:%s:%s" .Release.Namespace (include "llm-serving-operator.serviceAccountName" .) }}
{{- end }}

{{/*
Where the policies on ModelServers, BenchmarkRuns and ServingExperiments apply: the watched namespaces, as a
binding's matchResources (none with watchAllNamespaces: every namespace).
*/}}
{{- define "llm-serving-operator.watchedNamespacesMatch" -}}
{{- if not .Values.watchAllNamespaces }}
matchResources:
  namespaceSelector:
    matchExpressions:
      - key: kubernetes.io/metadata.name
        operator: In
        values:
          {{- range splitList "," (include "llm-serving-operator.watchedNamespaces" .) }}
          - {{ . | quote }}
          {{- end }}
{{- end }}
{{- end }}

{{/* ValidatingAdmissionPolicy v1 is served from Kubernetes 1.30 on. */}}
{{- define "llm-serving-operator.requireAdmissionPolicyApi" -}}
{{- if semverCompare "<1.30-0" .Capabilities.KubeVersion.Version }}
{{- fail (printf "admissionPolicy needs Kubernetes 1.30 or newer (ValidatingAdmissionPolicy v1); this is %s" .Capabilities.KubeVersion.Version) }}
{{- end }}
{{- end }}
