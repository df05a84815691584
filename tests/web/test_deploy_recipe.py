"""The deploy recipe (deploy/, docs/deploy.md) checked as far as this machine allows without a container
engine: hadolint on the Dockerfile, the compose file against the Compose Specification's schema, and the compose
services and variables against the Procfile and the README's configuration table, so that neither drifts."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
COMPOSE = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
SERVICES = COMPOSE["services"]
#: the services that run the assistant's image, each one process of Procfile.scale
ASSISTANT = {name: s for name, s in SERVICES.items() if s.get("image", "").startswith("town-assistant")}


def procfile(name: str) -> dict[str, str]:
    return dict(line.split(":", 1) for line in (ROOT / name).read_text().splitlines()
                if line.strip() and not line.startswith("#"))


def env_template() -> dict[str, str]:
    return dict(line.split("=", 1) for line in (DEPLOY / "assistant.env.example").read_text().splitlines()
                if line.strip() and not line.startswith("#"))


def test_the_dockerfile_passes_hadolint():
    hadolint = Path(sys.executable).with_name("hadolint")
    done = subprocess.run([str(hadolint), str(DEPLOY / "Dockerfile")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_compose_file_follows_the_compose_specification():
    schema = json.loads((ROOT / "tests" / "fixtures" / "compose-spec" / "compose-spec.json").read_text())
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in Draft202012Validator(schema).iter_errors(COMPOSE)]
    assert errors == []


def test_every_process_make_run_starts_has_a_service_that_starts_it_from_the_scaled_procfile():
    scaled = procfile("Procfile.scale")
    assert set(procfile("Procfile")) <= set(ASSISTANT)
    for name, service in ASSISTANT.items():
        assert service["command"] == [name] and name in scaled, name
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert '"--procfile", "Procfile.scale", "start"' in dockerfile


def test_only_the_proxy_is_reachable_from_outside_and_the_assistant_shares_its_loopback():
    published = {name for name, s in SERVICES.items() if s.get("ports")}
    assert published == {"proxy"}
    assert all(s["network_mode"] == "service:proxy" for s in ASSISTANT.values())
    assert re.search(r"reverse_proxy 127\.0\.0\.1:\{\$WEB_PORT", (DEPLOY / "Caddyfile").read_text())


def test_the_env_template_sets_every_variable_the_readme_and_the_scaled_processes_need():
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("## Configuration"):readme.index("## Layout")]
    named = {v for row in table.splitlines() if row.startswith("| `")
             for v in re.findall(r"`([A-Z_]+)`", row.split("|")[1])}
    named -= {"ASSISTANT_NOW"}  # for tests and demos: never set in a deployment
    used = set(re.findall(r"\$\(?\(?([A-Z_]+)", " ".join(procfile("Procfile.scale").values())))
    used |= set(re.findall(r"\$\{([A-Z_]+)\}", (ROOT / "bot" / "endpoints-scale.yml").read_text()))
    used |= set(re.findall(r"\$\{([A-Z_]+)", yaml.safe_dump(COMPOSE)))
    missing = (named | used) - set(env_template())
    assert missing == set()


def test_every_variable_of_the_env_template_is_documented():
    docs = (ROOT / "docs" / "configuration.md").read_text() + (ROOT / "docs" / "deploy.md").read_text()
    undocumented = [v for v in env_template() if f"`{v}`" not in docs]
    assert undocumented == []


@pytest.mark.parametrize("service", sorted(set(ASSISTANT) - {"sender"}))
def test_every_listening_process_has_a_health_check(service):
    assert "healthcheck" in SERVICES[service]
