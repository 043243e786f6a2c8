// Wrapper module that builds the Kubernetes control-plane binaries from the Go module proxy.
// build.sh adds a replace line for every staging module k8s.io/kubernetes lists at v0.0.0.
module llmops.dev/controlplane/kubernetes

go 1.26.0

require k8s.io/kubernetes v1.36.3

tool (
	k8s.io/kubernetes/cmd/kube-apiserver
	k8s.io/kubernetes/cmd/kube-controller-manager
	k8s.io/kubernetes/cmd/kube-scheduler
	k8s.io/kubernetes/cmd/kubectl
)
