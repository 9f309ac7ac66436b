"""The Kubernetes manifests under deploy/k8s.

`kubectl kustomize` renders the base and every overlay; every rendered object validates
offline against the Kubernetes JSON schemas; and the rendered YAML keeps the promises of
deploy/README.md: probes, resources, hardening, safe rollouts and termination, scaling,
the NetworkPolicies, the Redis Secret and gRPC load balancing, for the two servers and the
worker.
"""

from __future__ import annotations

import base64
import functools
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml", reason="PyYAML is needed (it comes with kubernetes-validate)")

K8S = Path(__file__).resolve().parents[2] / "deploy" / "k8s"
KUBECTL = shutil.which("kubectl") or next(
    (p for p in ("/usr/bin/kubectl", "/usr/local/bin/kubectl") if Path(p).is_file()), None
)
pytestmark = pytest.mark.skipif(
    KUBECTL is None, reason="kubectl is not installed, so the kustomizations cannot be rendered"
)

TARGETS = ["base"] + sorted(
    f"overlays/{d.name}" for d in (K8S / "overlays").iterdir() if (d / "kustomization.yaml").is_file()
)
# The oldest Kubernetes the manifests support (native gRPC probes went GA in 1.27); the
# rendered objects are validated against it and the newest schemas kubernetes-validate has.
OLDEST_K8S = "1.27"

SERVICE, GATEWAY, WORKER = "parlor-service", "parlor-gateway", "parlor-worker"
SERVERS = (SERVICE, GATEWAY)  # what clients call, behind a Service
PARLOR = (SERVICE, GATEWAY, WORKER)
GRPC_PORT = 50051
WORKER_PORT = 9096
CLIENT_NAMESPACE_LABEL = {"parlor.dev/client": "true"}


@functools.cache
def render(target: str) -> tuple[dict, ...]:
    done = subprocess.run(
        [KUBECTL, "kustomize", str(K8S / target)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, f"kubectl kustomize {target} failed:\n{done.stderr}"
    return tuple(doc for doc in yaml.safe_load_all(done.stdout) if doc)


def render_with_component(root: Path, component: str) -> list[dict]:
    """The base with the opt-in component `components/<component>`, from an overlay
    written in `root` as deploy/README.md says to add one."""
    k8s = os.path.relpath(K8S, root)  # (kustomize takes no absolute paths)
    (root / "kustomization.yaml").write_text(
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: parlor\n"
        f"resources:\n  - {k8s}/base\ncomponents:\n  - {k8s}/components/{component}\n")
    done = subprocess.run([KUBECTL, "kustomize", str(root)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc]


def objects(target: str, kind: str) -> list[dict]:
    return [o for o in render(target) if o["kind"] == kind]


def one(target: str, kind: str, name: str) -> dict:
    found = [o for o in objects(target, kind) if o["metadata"]["name"] == name]
    assert len(found) == 1, f"{target}: expected one {kind} {name}, found {len(found)}"
    return found[0]


def workloads(target: str) -> list[dict]:
    return objects(target, "Deployment") + objects(target, "StatefulSet")


def containers(workload: dict) -> list[dict]:
    spec = workload["spec"]["template"]["spec"]
    return spec.get("initContainers", []) + spec["containers"]


def matches(selector: dict, labels: dict) -> bool:
    return all(labels.get(k) == v for k, v in selector.items())


def labels_of(target: str, deployment: str) -> dict:
    return one(target, "Deployment", deployment)["spec"]["template"]["metadata"]["labels"]


def policies_for(target: str, labels: dict) -> list[dict]:
    """The NetworkPolicies that select pods with these labels."""
    return [
        p for p in objects(target, "NetworkPolicy")
        if matches(p["spec"]["podSelector"].get("matchLabels", {}), labels)
    ]


def settings(target: str, container: dict) -> dict[str, str]:
    """The environment a container sees from ConfigMaps and literal values."""
    env: dict[str, str] = {}
    maps = {m["metadata"]["name"]: m.get("data", {}) for m in objects(target, "ConfigMap")}
    for source in container.get("envFrom", []):
        if "configMapRef" in source:
            env.update(maps[source["configMapRef"]["name"]])
    env.update({e["name"]: e["value"] for e in container.get("env", []) if "value" in e})
    return env


def env_var(container: dict, name: str) -> dict:
    found = [e for e in container.get("env", []) if e["name"] == name]
    assert found, f"container {container['name']} has no {name}"
    return found[0]


def parlor_container(target: str, name: str) -> dict:
    (container,) = one(target, "Deployment", name)["spec"]["template"]["spec"]["containers"]
    return container


every_target = pytest.mark.parametrize("target", TARGETS)


# --- rendering and schemas ------------------------------------------------------------


@every_target
def test_renders(target):
    docs = render(target)
    assert docs, f"{target} renders nothing"
    seen = set()
    for doc in docs:
        key = (doc["apiVersion"], doc["kind"], doc["metadata"]["name"])
        assert key not in seen, f"{target}: {key} twice"
        seen.add(key)
        if doc["kind"] != "Namespace":
            assert doc["metadata"].get("namespace") == "parlor", f"{target}: {key} outside parlor"


@every_target
def test_validates_against_kubernetes_schemas(target):
    kv = pytest.importorskip(
        "kubernetes_validate", reason="kubernetes-validate is not installed (add it to the test extras)"
    )
    errors = []
    for version in (OLDEST_K8S, kv.latest_version()):
        for doc in render(target):
            name = f"{doc['kind']}/{doc['metadata']['name']}"
            try:
                kv.validate(doc, version, strict=True)
            except kv.ValidationError as e:
                path = ".".join(str(p) for p in e.path)
                errors.append(f"{version} {name}: {path}: {e.message}")
            except kv.SchemaNotFoundError as e:
                errors.append(f"{version} {name}: {e.message}")
    assert not errors, "\n".join(errors)


def test_schema_validation_catches_a_misspelled_field():
    kv = pytest.importorskip(
        "kubernetes_validate", reason="kubernetes-validate is not installed (add it to the test extras)"
    )
    deployment = one("base", "Deployment", SERVICE)
    broken = yaml.safe_load(yaml.safe_dump(deployment))
    broken["spec"]["template"]["spec"]["containers"][0]["readynessProbe"] = {}
    with pytest.raises(kv.ValidationError):
        kv.validate(broken, OLDEST_K8S, strict=True)


# --- every workload -------------------------------------------------------------------


@every_target
def test_every_container_has_liveness_and_readiness_probes(target):
    for workload in workloads(target):
        for c in containers(workload):
            for probe in ("livenessProbe", "readinessProbe"):
                assert c.get(probe), f"{target}: {workload['metadata']['name']}/{c['name']} lacks {probe}"


@every_target
def test_every_container_has_requests_and_limits(target):
    for workload in workloads(target):
        for c in containers(workload):
            where = f"{target}: {workload['metadata']['name']}/{c['name']}"
            for bound in ("requests", "limits"):
                for resource in ("cpu", "memory"):
                    value = c.get("resources", {}).get(bound, {}).get(resource)
                    assert value, f"{where}: no {bound}.{resource}"


@every_target
def test_every_pod_is_hardened(target):
    for workload in workloads(target):
        pod = workload["spec"]["template"]["spec"]
        pod_ctx = pod.get("securityContext", {})
        assert pod.get("automountServiceAccountToken") is False
        assert not pod.get("hostNetwork") and not pod.get("hostPID") and not pod.get("hostIPC")
        for c in containers(workload):
            where = f"{target}: {workload['metadata']['name']}/{c['name']}"
            ctx = c.get("securityContext", {})

            def effective(key, ctx=ctx):
                return ctx.get(key, pod_ctx.get(key))

            assert effective("runAsNonRoot") is True, where
            assert effective("runAsUser") not in (None, 0), f"{where}: give a numeric non-root uid"
            assert (effective("seccompProfile") or {}).get("type") == "RuntimeDefault", where
            assert ctx.get("readOnlyRootFilesystem") is True, where
            assert ctx.get("allowPrivilegeEscalation") is False, where
            assert not ctx.get("privileged"), where
            assert ctx.get("capabilities", {}).get("drop") == ["ALL"], where
            assert not ctx.get("capabilities", {}).get("add"), where


@every_target
def test_deployments_roll_without_losing_capacity(target):
    for deployment in objects(target, "Deployment"):
        strategy = deployment["spec"]["strategy"]
        assert strategy["type"] == "RollingUpdate"
        assert strategy["rollingUpdate"]["maxUnavailable"] == 0, deployment["metadata"]["name"]
        assert strategy["rollingUpdate"]["maxSurge"] not in (0, "0%")


@every_target
@pytest.mark.parametrize("name", SERVERS)
def test_grace_period_outlasts_prestop_sleep_and_drain(target, name):
    pod = one(target, "Deployment", name)["spec"]["template"]["spec"]
    container = parlor_container(target, name)
    command = container["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep", "preStop should only wait for the endpoint removal to spread"
    drain = int(settings(target, container)["PARLOR_DRAIN_SECONDS"])
    assert pod["terminationGracePeriodSeconds"] > int(command[1]) + drain


@every_target
def test_worker_grace_period_outlasts_its_drain(target):
    """No Service routes to the worker, so no preStop sleep: SIGTERM comes at once,
    and the moves in hand finish within PARLOR_DRAIN_SECONDS."""
    pod = one(target, "Deployment", WORKER)["spec"]["template"]["spec"]
    container = parlor_container(target, WORKER)
    sleep = container.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command", ["sleep", "0"])
    assert sleep[0] == "sleep"
    drain = int(settings(target, container)["PARLOR_DRAIN_SECONDS"])
    assert pod["terminationGracePeriodSeconds"] > int(sleep[1]) + drain


@every_target
@pytest.mark.parametrize("name", PARLOR)
def test_parlor_pods_write_only_to_an_emptydir_tmp(target, name):
    pod = one(target, "Deployment", name)["spec"]["template"]["spec"]
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    mounts = {m["mountPath"]: m["name"] for m in parlor_container(target, name).get("volumeMounts", [])}
    assert set(mounts) == {"/tmp"}
    assert "emptyDir" in volumes[mounts["/tmp"]]


@every_target
@pytest.mark.parametrize("name", PARLOR)
def test_parlor_pods_are_scraped_by_prometheus(target, name):
    template = one(target, "Deployment", name)["spec"]["template"]
    annotations = template["metadata"].get("annotations", {})
    assert annotations.get("prometheus.io/scrape") == "true"
    assert annotations.get("prometheus.io/path") == "/metrics"
    ports = {str(p["containerPort"]) for p in parlor_container(target, name)["ports"]}
    assert annotations.get("prometheus.io/port") in ports


@every_target
def test_images_are_pinned(target):
    for workload in workloads(target):
        for c in containers(workload):
            image = c["image"]
            tag = image.rsplit("/", 1)[-1].partition(":")[2]
            assert tag and tag != "latest", f"{target}: {c['name']} image {image} has no fixed tag"


# --- the service, the gateway and the worker ------------------------------------------


@every_target
def test_service_probes_use_grpc_health_and_liveness_ignores_redis(target):
    container = parlor_container(target, SERVICE)
    liveness = container["livenessProbe"]["grpc"]
    readiness = container["readinessProbe"]["grpc"]
    assert liveness == {"port": GRPC_PORT, "service": "liveness"}
    assert readiness == {"port": GRPC_PORT, "service": "parlor.v1.Parlor"}
    if "startupProbe" in container:
        assert container["startupProbe"]["grpc"]["service"] == "liveness"


@every_target
def test_gateway_probes_use_healthz(target):
    """Readiness too: a gateway answers with the API's JSON whatever is down
    behind it, so a Redis outage must not take every gateway out at once."""
    container = parlor_container(target, GATEWAY)
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["readinessProbe"]["httpGet"]["path"] == "/healthz"
    if "startupProbe" in container:
        assert container["startupProbe"]["httpGet"]["path"] == "/healthz"
    assert settings(target, container)["PROMETHEUS_MULTIPROC_DIR"].startswith("/tmp/")


@every_target
def test_worker_probes_use_healthz_and_readyz_on_its_port(target):
    """Liveness (and startup) only asks whether the process answers; readiness follows
    Redis: an outage holds up a rollout but restarts nothing."""
    container = parlor_container(target, WORKER)
    assert container["args"] == ["worker"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert list(ports.values()) == [WORKER_PORT]
    assert settings(target, container)["PARLOR_WORKER_PORT"] == str(WORKER_PORT)
    paths = {"startupProbe": "/healthz", "livenessProbe": "/healthz", "readinessProbe": "/readyz"}
    for probe, path in paths.items():
        get = container[probe]["httpGet"]
        assert get["path"] == path, probe
        assert get["port"] in (WORKER_PORT, *[name for name, port in ports.items() if port == WORKER_PORT])
        assert get.get("scheme", "HTTP") == "HTTP"


@every_target
def test_worker_settings_are_set_within_what_it_accepts(target):
    """Set in the Deployment, for operators to see and tune, within the ranges
    parlor.common.config takes (out of them, the worker would not start)."""
    env = settings(target, parlor_container(target, WORKER))
    assert 1 <= int(env["PARLOR_WORKER_CONCURRENCY"]) <= 10_000
    assert int(env["PARLOR_DRAIN_SECONDS"]) > 0
    assert 1 <= int(env["PARLOR_WORKER_LEASE_SECONDS"]) <= 3600
    assert 10 <= int(env["PARLOR_WORKER_POLL_MS"]) < 1000 * int(env["PARLOR_WORKER_LEASE_SECONDS"])


@every_target
def test_the_service_runs_one_process_a_pod(target):
    """Replicas scale the service in Kubernetes, each with its own probes and place in
    the headless Service."""
    assert settings(target, parlor_container(target, SERVICE))["PARLOR_SERVICE_PROCESSES"] == "1"


@every_target
@pytest.mark.parametrize("name", (SERVICE, WORKER))
def test_what_talks_to_redis_gets_its_url_from_the_secret(target, name):
    ref = env_var(parlor_container(target, name), "REDIS_URL")["valueFrom"]["secretKeyRef"]
    assert ref["key"] == "url"
    assert ref["name"].startswith("parlor-redis")  # kustomize may add a content hash
    assert not ref.get("optional"), "without Redis neither can work: fail visibly"


@every_target
def test_the_gateway_gets_no_redis_url(target):
    gateway = parlor_container(target, GATEWAY)
    assert "REDIS_URL" not in {e["name"] for e in gateway.get("env", [])}
    assert "REDIS_URL" not in settings(target, gateway)


@every_target
def test_services_select_existing_pods_and_ports(target):
    for service in objects(target, "Service"):
        selector = service["spec"]["selector"]
        pods = [w for w in workloads(target)
                if matches(selector, w["spec"]["template"]["metadata"]["labels"])]
        assert pods, f"{target}: Service {service['metadata']['name']} selects no pods"
        port_names = {p.get("name") for w in pods for c in containers(w) for p in c.get("ports", [])}
        port_numbers = {p["containerPort"] for w in pods for c in containers(w) for p in c.get("ports", [])}
        for port in service["spec"]["ports"]:
            target_port = port.get("targetPort", port["port"])
            assert target_port in port_names | port_numbers, f"{service['metadata']['name']}: {target_port}"


@every_target
def test_grpc_calls_are_balanced_over_every_replica(target):
    headless = one(target, "Service", "parlor-service-headless")
    assert headless["spec"]["clusterIP"] == "None"
    assert [p["port"] for p in headless["spec"]["ports"]] == [GRPC_PORT]
    for service in objects(target, "Service"):  # gRPC ports say so, for routes and meshes
        for port in service["spec"]["ports"]:
            if port.get("name") == "grpc":
                assert port["appProtocol"] == "kubernetes.io/h2c", service["metadata"]["name"]
    regular = one(target, "Service", SERVICE)
    assert regular["spec"].get("clusterIP") != "None"
    assert regular["spec"].get("type", "ClusterIP") == "ClusterIP"

    gateway = parlor_container(target, GATEWAY)
    target_url = env_var(gateway, "PARLOR_SERVICE_TARGET")["value"]
    assert target_url.startswith("dns:///parlor-service-headless.")
    assert target_url.endswith(f":{GRPC_PORT}")
    # A $(VAR) reference only expands when VAR is defined earlier in the list.
    if "$(POD_NAMESPACE)" in target_url:
        names = [e["name"] for e in gateway["env"]]
        assert names.index("POD_NAMESPACE") < names.index("PARLOR_SERVICE_TARGET")
        namespace = env_var(gateway, "POD_NAMESPACE")["valueFrom"]["fieldRef"]["fieldPath"]
        assert namespace == "metadata.namespace"

    age = settings(target, parlor_container(target, SERVICE))["PARLOR_GRPC_MAX_CONNECTION_AGE_SECONDS"]
    assert 0 < int(age) <= 3600


@every_target
def test_every_deployment_has_an_hpa_and_a_pdb(target):
    deployments = {d["metadata"]["name"]: d for d in objects(target, "Deployment")}
    hpas = {h["spec"]["scaleTargetRef"]["name"]: h for h in objects(target, "HorizontalPodAutoscaler")}
    assert set(deployments) == set(PARLOR)
    for name in PARLOR:
        hpa = hpas[name]
        assert hpa["apiVersion"] == "autoscaling/v2"
        assert hpa["spec"]["scaleTargetRef"]["kind"] == "Deployment"
        assert 1 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
        assert [m["resource"]["name"] for m in hpa["spec"]["metrics"]] == ["cpu"]
        # Scaling down drains pods: only after the load has stayed low a while.
        assert hpa["spec"]["behavior"]["scaleDown"]["stabilizationWindowSeconds"] >= 300
        # The HPA alone sets the count: a Deployment's own replicas would reset it on every apply.
        assert "replicas" not in deployments[name]["spec"], name

        labels = labels_of(target, name)
        pdbs = [p for p in objects(target, "PodDisruptionBudget")
                if matches(p["spec"]["selector"]["matchLabels"], labels)]
        assert len(pdbs) == 1, f"{target}: {name} needs exactly one PodDisruptionBudget"
        pdb = pdbs[0]["spec"]
        # A budget that never allows an eviction would block every node drain.
        if "minAvailable" in pdb:
            assert pdb["minAvailable"] < hpa["spec"]["minReplicas"]
        else:
            assert pdb["maxUnavailable"] not in (0, "0%")
        # Nor may pods that are not ready (all of them, while Redis is down) hold one up.
        assert pdb["unhealthyPodEvictionPolicy"] == "AlwaysAllow"

        # One node lost is never every replica: spread over nodes, strictly.
        spread = deployments[name]["spec"]["template"]["spec"]["topologySpreadConstraints"]
        by_node = [c for c in spread if c["topologyKey"] == "kubernetes.io/hostname"]
        assert by_node and by_node[0]["whenUnsatisfiable"] == "DoNotSchedule"
        assert by_node[0]["matchLabelKeys"] == ["pod-template-hash"]


@every_target
def test_network_policy_admits_only_the_gateway_and_client_namespaces_to_grpc(target):
    policies = policies_for(target, labels_of(target, SERVICE))
    assert len(policies) == 1
    spec = policies[0]["spec"]
    assert "Ingress" in spec["policyTypes"]
    gateway_labels = labels_of(target, GATEWAY)
    grpc_rules = [
        rule for rule in spec["ingress"]
        if not rule.get("ports") or any(p.get("port") in (GRPC_PORT, "grpc") for p in rule["ports"])
    ]
    assert grpc_rules, "nothing may reach the gRPC port"
    for rule in grpc_rules:
        assert rule.get("from"), "a rule without 'from' opens the gRPC port to everyone"
        for peer in rule["from"]:
            assert set(peer) <= {"podSelector", "namespaceSelector"}, f"unexpected peer {peer}"
            if "namespaceSelector" in peer:
                assert peer["namespaceSelector"] == {"matchLabels": CLIENT_NAMESPACE_LABEL}
            else:
                assert matches(peer["podSelector"]["matchLabels"], gateway_labels)
    peers = [peer for rule in grpc_rules for peer in rule["from"]]
    assert any("namespaceSelector" in peer for peer in peers)
    assert any("podSelector" in peer and "namespaceSelector" not in peer for peer in peers)


@every_target
def test_network_policy_admits_only_the_worker_health_and_metrics_port(target):
    """Prometheus and the kubelet reach the worker's one port (from anywhere, as the
    service's metrics port); nothing else is let in."""
    policies = policies_for(target, labels_of(target, WORKER))
    assert len(policies) == 1
    spec = policies[0]["spec"]
    assert spec["policyTypes"] == ["Ingress"]  # (egress, to Redis, as unrestricted as the others')
    container_ports = {p["name"]: p["containerPort"] for p in parlor_container(target, WORKER)["ports"]}
    assert spec["ingress"], "nothing could reach the worker's metrics"
    for rule in spec["ingress"]:
        assert rule.get("ports"), "a rule without ports opens every port"
        for port in rule["ports"]:
            assert port.get("protocol", "TCP") == "TCP"
            assert container_ports.get(port["port"], port["port"]) == WORKER_PORT


# --- overlays -------------------------------------------------------------------------


def test_prod_runs_enough_replicas():
    for name, least in ((SERVICE, 3), (GATEWAY, 2), (WORKER, 2)):
        assert one("overlays/prod", "HorizontalPodAutoscaler", name)["spec"]["minReplicas"] >= least


def test_prod_takes_redis_from_an_uncommitted_secret():
    assert not objects("overlays/prod", "Secret"), "the production Redis password must not be committed"
    assert not objects("overlays/prod", "StatefulSet"), "production uses an external Redis"
    for name in (SERVICE, WORKER):
        ref = env_var(parlor_container("overlays/prod", name), "REDIS_URL")["valueFrom"]["secretKeyRef"]
        assert ref == {"name": "parlor-redis", "key": "url"}


def test_prod_refuses_fixed_seeds():
    for name in PARLOR:
        env = settings("overlays/prod", parlor_container("overlays/prod", name))
        assert env.get("PARLOR_ALLOW_FIXED_SEED", "0") == "0"


def test_dev_runs_redis_with_aof_on_a_persistent_volume():
    target = "overlays/dev"
    (redis,) = objects(target, "StatefulSet")
    spec = redis["spec"]
    (container,) = spec["template"]["spec"]["containers"]
    args = " ".join(container.get("command", []) + container.get("args", []))
    assert "--appendonly yes" in args and "--appendfsync everysec" in args
    assert "--maxmemory-policy noeviction" in args
    maxmemory = re.search(r"--maxmemory (\d+)mb", args)
    limit = container["resources"]["limits"]["memory"]
    assert maxmemory and limit.endswith("Mi") and int(maxmemory[1]) <= int(limit[:-2]) // 2, (
        "a full Redis refuses writes, rather than being killed for memory (and again while its AOF replays)")
    claims = {c["metadata"]["name"] for c in spec["volumeClaimTemplates"]}
    data = [m["name"] for m in container["volumeMounts"] if m["mountPath"] == "/data"]
    assert data and data[0] in claims, "/data must be the persistent volume"

    governing = one(target, "Service", spec["serviceName"])
    assert governing["spec"]["clusterIP"] == "None"
    assert matches(governing["spec"]["selector"], spec["template"]["metadata"]["labels"])

    ref = env_var(parlor_container(target, SERVICE), "REDIS_URL")["valueFrom"]["secretKeyRef"]
    secret = one(target, "Secret", ref["name"])
    url = base64.b64decode(secret["data"][ref["key"]]).decode()
    assert url.startswith(f"redis://{spec['serviceName']}:6379/")

    # Only the service and the worker may talk to it; both get the same URL.
    assert env_var(parlor_container(target, WORKER), "REDIS_URL")["valueFrom"]["secretKeyRef"] == ref
    (policy,) = policies_for(target, spec["template"]["metadata"]["labels"])
    peers = [peer for rule in policy["spec"]["ingress"] for peer in rule["from"]]
    assert peers and all(set(peer) == {"podSelector"} for peer in peers)
    admitted = {name for name in PARLOR
                if any(matches(peer["podSelector"]["matchLabels"], labels_of(target, name)) for peer in peers)}
    assert admitted == {SERVICE, WORKER}
