#!/usr/bin/env python3
"""Packs a root file system directory into a one-layer image tarball in the docker-archive format (what `docker save`
writes and Jib reads as a `tar://` base image), without a container engine.

  docker_archive.py ROOTFS OUTPUT.tar --env NAME=VALUE... --tag NAME:TAG

The layer is written with GNU tar (numeric owners, sorted names, one fixed mtime), so the same tree gives the same
layer digest.
"""
import argparse
import hashlib
import json
import os
import subprocess
import tarfile
import tempfile


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rootfs")
    parser.add_argument("output")
    parser.add_argument("--env", action="append", default=[])
    parser.add_argument("--tag", required=True)
    parser.add_argument("--created", default="1970-01-01T00:00:00Z")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as work:
        layer = os.path.join(work, "layer.tar")
        subprocess.run(["tar", "--numeric-owner", "--sort=name", "--mtime=@0", "--xattrs", "-C", args.rootfs,
                        "-cf", layer, "."], check=True)
        layer_digest = sha256(layer)
        config = {
            "architecture": "amd64",
            "os": "linux",
            "created": args.created,
            "config": {"Env": args.env},
            "rootfs": {"type": "layers", "diff_ids": ["sha256:" + layer_digest]},
            "history": [{"created": args.created, "created_by": "docker_archive.py " + args.tag}],
        }
        config_bytes = json.dumps(config, sort_keys=True).encode()
        config_name = hashlib.sha256(config_bytes).hexdigest() + ".json"
        config_path = os.path.join(work, config_name)
        with open(config_path, "wb") as f:
            f.write(config_bytes)
        manifest_path = os.path.join(work, "manifest.json")
        with open(manifest_path, "w") as f:
            json.dump([{"Config": config_name, "RepoTags": [args.tag], "Layers": [layer_digest + "/layer.tar"]}], f)
        os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
        with tarfile.open(args.output, "w") as out:
            out.add(config_path, arcname=config_name)
            out.add(layer, arcname=layer_digest + "/layer.tar")
            out.add(manifest_path, arcname="manifest.json")
    print("wrote %s (layer sha256:%s)" % (args.output, layer_digest))


if __name__ == "__main__":
    main()
