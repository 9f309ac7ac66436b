"""The opt-in monitoring component (deploy/k8s/components/monitoring): it renders
with the base, its PodMonitors scrape what the pods serve, and its alerts ask only
for series and labels the servers and the worker export."""

from __future__ import annotations

import re

import pytest

from parlor.common.errors import CODES
from parlor.gateway import create_app
from parlor.service.servicer import ParlorServicer

from .test_manifests import KUBECTL, render_with_component  # (skips without kubectl or PyYAML)

promql = pytest.importorskip("promql_parser", reason="promql-parser is not installed (the test extra)")

pytestmark = pytest.mark.skipif(KUBECTL is None, reason="kubectl is not installed")


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> list[dict]:
    """An overlay adding the component to the base, as deploy/README.md says."""
    return render_with_component(tmp_path_factory.mktemp("overlay"), "monitoring")


def _exported() -> dict[str, set[str]]:
    """Every series name the servers and the worker export, with its label names."""
    from prometheus_client.metrics import MetricWrapperBase

    from parlor.gateway import metrics as gateway_metrics
    from parlor.service import metrics as service_metrics
    from parlor.service import worker

    suffixes = {"counter": ["_total"], "gauge": [""], "histogram": ["_bucket", "_sum", "_count"]}
    series = {}
    for module in (service_metrics, gateway_metrics, worker):
        for metric in vars(module).values():
            if isinstance(metric, MetricWrapperBase):
                for suffix in suffixes[metric._type]:
                    labels = set(metric._labelnames) | ({"le"} if suffix == "_bucket" else set())
                    series[metric._name + suffix] = labels
    return series


def test_pod_monitors_scrape_each_server_where_its_pods_serve_metrics(rendered):
    deployments = {d["metadata"]["name"]: d for d in rendered if d["kind"] == "Deployment"}
    monitors = [d for d in rendered if d["kind"] == "PodMonitor"]
    assert {m["metadata"]["name"] for m in monitors} == set(deployments) == {
        "parlor-service", "parlor-gateway", "parlor-worker"}
    for monitor in monitors:
        assert monitor["metadata"]["namespace"] == "parlor"
        template = deployments[monitor["metadata"]["name"]]["spec"]["template"]
        labels = template["metadata"]["labels"]
        assert monitor["spec"]["selector"]["matchLabels"].items() <= labels.items()
        (endpoint,) = monitor["spec"]["podMetricsEndpoints"]
        (container,) = template["spec"]["containers"]
        ports = {p["name"]: str(p["containerPort"]) for p in container["ports"]}
        annotations = template["metadata"]["annotations"]
        assert ports[endpoint["port"]] == annotations["prometheus.io/port"]
        assert endpoint["path"] == annotations["prometheus.io/path"]
        # scraped by the PodMonitor only, not also by a Prometheus that follows annotations
        assert annotations["prometheus.io/scrape"] == "false"


def test_alerts_ask_only_for_what_the_servers_export(rendered):
    (rule,) = [d for d in rendered if d["kind"] == "PrometheusRule"]
    assert rule["metadata"]["namespace"] == "parlor"
    exported = _exported()
    target_labels = {"job", "namespace", "pod", "instance", "container"}
    alerts = [r for group in rule["spec"]["groups"] for r in group["rules"]]
    assert len(alerts) >= 6 and all(r["labels"]["severity"] in ("critical", "warning", "info") for r in alerts)
    methods = {name for name in vars(ParlorServicer) if name[:1].isupper()}
    routes = {rule.rule for rule in create_app().url_map.iter_rules()}  # (the gateway's `route` values)
    for alert in alerts:
        assert alert["annotations"]["summary"] and alert["annotations"]["description"], alert["alert"]
        selectors, groupings = [], []

        def visit(node) -> None:
            if isinstance(node, promql.VectorSelector):
                selectors.append(node)
            elif isinstance(node, promql.AggregateExpr) and node.modifier is not None:
                groupings.append(node.modifier.labels)  # by (...) or without (...)

        promql.walk(promql.parse(alert["expr"]), pre_visit=visit)  # (parse raises on a syntax error)
        assert selectors, alert["alert"]
        names = set()
        for selector in selectors:
            metric = selector.name
            labels = {"job"} if metric == "up" else exported.get(metric)
            assert labels is not None, f"{alert['alert']}: no series {metric}"
            names |= labels
            for matcher in selector.matchers.matchers:
                label, value, equal = matcher.name, matcher.value, matcher.op == promql.MatchOp.Equal
                assert label in labels | target_labels, f"{alert['alert']}: {metric} has no label {label}"
                if label == "code" and equal:
                    assert value in CODES, value
                if label == "rpc" and equal:
                    assert value in methods, value
                if label == "route" and equal:
                    assert value in routes, value
                if label == "status":
                    assert re.fullmatch(value, "429") or re.fullmatch(value, "503"), value
        for grouping in groupings:
            for label in grouping:
                assert label in names | target_labels, f"{alert['alert']}: groups by unknown {label}"


def test_every_process_is_watched(rendered):
    """Each Deployment's job is in the target-down alert, the worker's absence is an
    alert of its own, and its metrics have rules."""
    (rule,) = [d for d in rendered if d["kind"] == "PrometheusRule"]
    alerts = {r["alert"]: r for group in rule["spec"]["groups"] for r in group["rules"]}
    jobs = [d["metadata"]["name"] for d in rendered if d["kind"] == "Deployment"]
    down = re.search(r'job=~"([^"]+)"', alerts["ParlorTargetDown"]["expr"])[1]
    for job in jobs:
        assert re.fullmatch(down, f"parlor/{job}"), job
    assert alerts["ParlorNoWorker"]["labels"]["severity"] == "critical"
    assert 'absent(up{job=~".+/parlor-worker"} == 1)' in alerts["ParlorNoWorker"]["expr"]
    asked = " ".join(r["expr"] for r in alerts.values())
    for series in ("parlor_worker_oldest_due_seconds", "parlor_worker_lease_expiries_total",
                   "parlor_worker_failures_total"):
        assert series in asked, series
