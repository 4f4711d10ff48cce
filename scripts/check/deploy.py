#!/usr/bin/env python3
"""Checks deploy/: the Kubernetes YAML parses and holds together with the
Containerfile, and the command both give really serves.

- deploy/kubernetes.yaml parses (PyYAML) into a Deployment and a Service;
  the Service selects the Deployment's pods and targets a port the
  container declares; readiness (and liveness) probe GET /healthz on it;
  the token file the command names is where the Secret volume puts it.
- deploy/Containerfile's final stage holds the binary and the bundle the
  command names, exposes the container's port, and its ENTRYPOINT is the
  Deployment's command.
- That command runs: with the container's paths mapped to a local `skills`
  binary, a bundle of testdata/skills and a token file, and the port to a
  free one (still on every interface), /healthz answers 200 to a probe as
  the kubelet sends it (Host: the pod's address), /mcp answers 401
  without the token and 200 with it, and SIGTERM ends it with status 0.

    PYTHON scripts/check/deploy.py SKILLS_BINARY
    (PYTHON with PyYAML; scripts/test.sh runs it with the core venv's)
"""

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fail(message):
    print(f"check-deploy: {message}", file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def containerfile():
    """The final stage's ENTRYPOINT, EXPOSEd ports and COPY destinations."""
    text = open(os.path.join(ROOT, "deploy/Containerfile")).read()
    # Continuation lines joined, comments dropped.
    text = re.sub(r"\\\n", " ", text)
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    stages = [i for i, line in enumerate(lines) if line.upper().startswith("FROM ")]
    check(stages, "the Containerfile has no FROM")
    final = lines[stages[-1]:]
    entry, exposed, copied = None, set(), set()
    for line in final:
        word, _, rest = line.partition(" ")
        word = word.upper()
        if word == "ENTRYPOINT":
            entry = json.loads(rest)
        elif word == "EXPOSE":
            exposed.update(int(port.split("/")[0]) for port in rest.split())
        elif word == "COPY":
            copied.add(rest.split()[-1])
    check(entry, "the final stage has no ENTRYPOINT (exec form)")
    return entry, exposed, copied


def kubernetes():
    with open(os.path.join(ROOT, "deploy/kubernetes.yaml")) as f:
        docs = [doc for doc in yaml.safe_load_all(f) if doc]
    by_kind = {}
    for doc in docs:
        check(isinstance(doc, dict) and "apiVersion" in doc and "kind" in doc, f"not a Kubernetes object: {doc!r}")
        by_kind.setdefault(doc["kind"], []).append(doc)
    check(len(by_kind.get("Deployment", [])) == 1, "one Deployment")
    check(len(by_kind.get("Service", [])) == 1, "one Service")
    return by_kind["Deployment"][0], by_kind["Service"][0]


def main():
    if len(sys.argv) != 2:
        fail("usage: deploy.py SKILLS_BINARY")
    skills = os.path.abspath(sys.argv[1])
    entry, exposed, copied = containerfile()
    deployment, service = kubernetes()

    spec = deployment["spec"]
    check(spec["replicas"] >= 2, "more than one replica")
    pod = spec["template"]
    labels = pod["metadata"]["labels"]
    check(
        all(labels.get(k) == v for k, v in spec["selector"]["matchLabels"].items()),
        "the Deployment's selector matches its pods",
    )
    check(
        all(labels.get(k) == v for k, v in service["spec"]["selector"].items()),
        "the Service selects the Deployment's pods",
    )
    (container,) = pod["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    for target in [p["targetPort"] for p in service["spec"]["ports"]]:
        check(target in ports or target in ports.values(), f"the Service targets port {target!r}, which the container declares")
    for probe in ("readinessProbe", "livenessProbe"):
        get = container[probe]["httpGet"]
        check(get["path"] == "/healthz", f"{probe} is GET /healthz")
        port = ports.get(get["port"], get["port"])
        check(port in ports.values(), f"{probe} probes a declared port")
    command = container["command"] + container.get("args", [])
    check(command == entry, f"the Deployment's command is the image's ENTRYPOINT: {command} vs {entry}")
    check(set(ports.values()) <= exposed, "the image exposes the container's ports")

    def after(flag):
        check(flag in command, f"the command has {flag}")
        return command[command.index(flag) + 1]

    binary, bundle, token_path = command[0], after("--bundle"), after("--bearer-token-file")
    host, port = after("--http").rsplit(":", 1)
    check(int(port) in ports.values(), "the server listens on the container's port")
    check({binary, bundle} <= copied, "the image holds the binary and the bundle the command names")
    mounted = False
    volumes = {v["name"]: v for v in pod["spec"].get("volumes", [])}
    for mount in container.get("volumeMounts", []):
        secret = volumes.get(mount["name"], {}).get("secret")
        for item in (secret or {}).get("items", []):
            mounted |= os.path.join(mount["mountPath"], item["path"]) == token_path
    check(mounted, f"a Secret volume puts the token at {token_path}")

    with tempfile.TemporaryDirectory() as work:
        local_bundle = os.path.join(work, "skills.bin")
        subprocess.run([skills, "build", os.path.join(ROOT, "testdata/skills"), "-o", local_bundle],
                       check=True, capture_output=True)
        token = "deploy-check-" + os.urandom(16).hex()
        local_token = os.path.join(work, "token")
        with open(local_token, "w") as f:
            f.write(token + "\n")
        mapping = {binary: skills, bundle: local_bundle, token_path: local_token, f"{host}:{port}": f"{host}:0"}
        run = [mapping.get(arg, arg) for arg in command]
        server = subprocess.Popen(run, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            first = server.stderr.readline()
            match = re.fullmatch(r"skills mcp: serving http://(.+):(\d+)/mcp\n", first)
            check(match, f"the first stderr line says where it serves: {first!r}")
            check(match.group(1) == host, f"it listens on {host}")
            local_port = int(match.group(2))

            def ask(method, path, headers, body=None):
                conn = http.client.HTTPConnection("127.0.0.1", local_port, timeout=30)
                conn.request(method, path, body=body, headers=headers)
                reply = conn.getresponse()
                data = reply.read()
                conn.close()
                return reply.status, data

            # As the kubelet probes: the pod's address in Host, no token.
            status, body = ask("GET", "/healthz", {"Host": f"10.1.2.3:{port}", "User-Agent": "kube-probe/1.31"})
            check((status, body) == (200, b"ok\n"), f"readiness: {status} {body!r}")
            request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
            headers = {"Host": "skills-mcp.default.svc", "Content-Type": "application/json"}
            status, _ = ask("POST", "/mcp", headers, request)
            check(status == 401, f"without the token: {status}")
            status, body = ask("POST", "/mcp", {**headers, "Authorization": f"Bearer {token}"}, request)
            check(status == 200 and json.loads(body)["result"]["tools"][0]["name"] == "skill", f"with the token: {status}")
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                code = server.wait(timeout=60)
            except subprocess.TimeoutExpired:
                server.kill()
                fail("the server did not stop on SIGTERM")
        check(code == 0, f"SIGTERM ends the server with status 0, not {code}")
    print(f"check-deploy: ok ({deployment['kind']} of {spec['replicas']} replicas and {service['kind']}; the command serves, probes and stops)")


if __name__ == "__main__":
    main()
