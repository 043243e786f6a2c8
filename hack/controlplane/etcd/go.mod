// Wrapper module that builds etcd from the Go module proxy (the server module's root is package main).
module llmops.dev/controlplane/etcd

go 1.24.0

require go.etcd.io/etcd/server/v3 v3.6.8

tool go.etcd.io/etcd/server/v3
