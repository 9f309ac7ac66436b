"""The opt-in Redis TLS component (deploy/k8s/components/redis-tls): with the base
it renders objects Kubernetes accepts, and it mounts the Secret with the CA (and any
client certificate) read-only where deploy/README.md's REDIS_URL names the files,
in the pods that talk to Redis (the service's and the worker's) alone."""

from __future__ import annotations

import pytest

from .test_manifests import K8S, KUBECTL, OLDEST_K8S, render_with_component  # (skips without kubectl or PyYAML)

pytestmark = pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed")

MOUNT = "/etc/parlor/redis-tls"


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> list[dict]:
    return render_with_component(tmp_path_factory.mktemp("overlay"), "redis-tls")


def _pod(rendered, name: str) -> dict:
    (deployment,) = [d for d in rendered if d["kind"] == "Deployment" and d["metadata"]["name"] == name]
    return deployment["spec"]["template"]["spec"]


@pytest.mark.parametrize("name", ["parlor-service", "parlor-worker"])
def test_what_talks_to_redis_mounts_the_secret_read_only(rendered, name):
    pod = _pod(rendered, name)
    (volume,) = [v for v in pod["volumes"] if v["name"] == "redis-tls"]
    assert volume["secret"] == {"secretName": "parlor-redis-tls", "defaultMode": 0o440}
    assert pod["securityContext"]["fsGroup"], "without fsGroup the pod's user could not read 0440 files"
    (container,) = pod["containers"]
    assert {"name": "redis-tls", "mountPath": MOUNT, "readOnly": True} in container["volumeMounts"]
    assert {"name": "tmp", "mountPath": "/tmp"} in container["volumeMounts"]  # the base's mount stays


def test_the_gateway_mounts_no_secret(rendered):
    gateway = _pod(rendered, "parlor-gateway")
    assert all(v["name"] != "redis-tls" for v in gateway["volumes"])


def test_validates_against_kubernetes_schemas(rendered):
    kv = pytest.importorskip("kubernetes_validate", reason="kubernetes-validate is not installed")
    for version in (OLDEST_K8S, kv.latest_version()):
        for doc in rendered:
            kv.validate(doc, version, strict=True)


def test_the_docs_name_files_under_the_mount():
    readme = (K8S.parents[1] / "deploy" / "README.md").read_text()
    component = (K8S / "components" / "redis-tls" / "kustomization.yaml").read_text()
    for text in (readme, component):
        for option in ("ssl_ca_certs", "ssl_certfile", "ssl_keyfile"):
            assert f"{option}={MOUNT}/" in text, option
