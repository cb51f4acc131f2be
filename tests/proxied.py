"""A league served behind a real reverse proxy on 127.0.0.1, for the deployment tests: a
self-signed certificate made with openssl, ``bgrid serve`` as deploy/bgrid-league.service runs
it, and nginx (the distribution's) or Caddy in front with a site written out for the test.
Every process is started and stopped here; nothing listens beyond 127.0.0.1."""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

HOST = "127.0.0.1"
REPO = Path(__file__).resolve().parents[1]
DEPLOY = REPO / "deploy"
BGRID = str(Path(sys.executable).with_name("bgrid"))
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
CADDY = shutil.which("caddy")

# The proxy set-ups an organiser writes, as nginx location blocks (the kit's is deploy/'s own):
# nginx's default Host (the upstream's address), $host (the name without the port), $http_host
# (what the browser sent), and a bare proxy_pass that passes nothing about the browser.
FORWARDED = "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;"
NGINX_LOCATIONS = {
    "default-host": f"proxy_set_header X-Forwarded-Proto $scheme; {FORWARDED}",
    "host": f"proxy_set_header Host $host; proxy_set_header X-Forwarded-Proto $scheme; {FORWARDED}",
    "http-host": f"proxy_set_header Host $http_host; proxy_set_header X-Forwarded-Proto $scheme; {FORWARDED}",
    "bare": "",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1, valid two days: (certificate, key)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                    "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True, timeout=60)
    return cert, key


def unit_command() -> list[str]:
    """deploy/bgrid-league.service's ExecStart, as words."""
    line = next(line for line in (DEPLOY / "bgrid-league.service").read_text().splitlines()
                if line.startswith("ExecStart="))
    return shlex.split(line.removeprefix("ExecStart="))


def _wait_for(url: str, process: subprocess.Popen, what: str, seconds: float = 60) -> None:
    import ssl

    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(url, timeout=5, context=context).read()
            return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"{what} did not start") from None
            time.sleep(0.2)


class Backend:
    """``bgrid serve`` over ``db`` with the service unit's options, on a free port of
    127.0.0.1; ``proxies`` overrides the unit's --proxies. Its log (stderr) is kept in a file."""

    def __init__(self, db: Path, folder: Path, proxies: int | None = None) -> None:
        self.port = free_port()
        words = unit_command()
        args = words[2:]
        args[args.index(words[2])] = str(db)  # the league's file
        args[args.index("--port") + 1] = str(self.port)
        if proxies is not None:
            args[args.index("--proxies") + 1] = str(proxies)
        self.log = folder / f"serve-{self.port}.log"
        self._log = self.log.open("w")
        limits = ["--submit-limit", "1000 per minute", "--register-limit", "1000 per minute"]
        self.process = subprocess.Popen([BGRID, "serve", *args, *limits],
                                        stdout=subprocess.DEVNULL, stderr=self._log, start_new_session=True)
        _wait_for(f"http://{HOST}:{self.port}/api/challenges", self.process, "bgrid serve")

    def log_text(self) -> str:
        self._log.flush()
        return self.log.read_text()

    def stop(self) -> None:
        _stop(self.process)
        self._log.close()


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def kit_nginx_site(listen: str, backend: int, cert: Path, key: Path) -> str:
    """deploy/nginx-bgrid-league.conf's HTTPS server as shipped, listening on ``listen`` (its
    port-80 redirect left out: the test has no port 80) with the test's certificate and
    backend port."""
    text = (DEPLOY / "nginx-bgrid-league.conf").read_text()
    servers = re.findall(r"^server \{.*?^\}", text, re.S | re.M)
    site = next(s for s in servers if "ssl_certificate" in s)
    site = re.sub(r"^\s*listen .*;\n", "", site, flags=re.M)
    site = site.replace("server {", f"server {{\n    listen {listen} ssl;", 1)
    site = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", site)
    site = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", site)
    site = site.replace("server_name league.example.org;", f"server_name {HOST};")
    return site.replace("http://127.0.0.1:8000", f"http://{HOST}:{backend}")


def nginx_site(setup: str, listen: str, backend: int, cert: Path | None, key: Path | None) -> str:
    """A site of one of NGINX_LOCATIONS' set-ups; TLS when a certificate is given."""
    tls = f"ssl_certificate {cert}; ssl_certificate_key {key};" if cert else ""
    return (f"server {{ listen {listen}{' ssl' if cert else ''}; server_name {HOST}; {tls} "
            f"client_max_body_size 512k; location / {{ proxy_pass http://{HOST}:{backend}; "
            f"{NGINX_LOCATIONS[setup]} }} }}\n")


class Nginx:
    """nginx in the foreground with ``site`` as its one server, its files all in ``folder``."""

    def __init__(self, folder: Path, site: str, port: int) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "site.conf").write_text(site)
        user = "user root;\n" if os.geteuid() == 0 else ""  # its workers read the test's own files
        temp = " ".join(f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi",
                                                                          "uwsgi", "scgi"))
        (folder / "nginx.conf").write_text(
            f"{user}daemon off; worker_processes 1; pid {folder / 'nginx.pid'};\n"
            f"error_log {folder / 'error.log'} warn;\nevents {{ worker_connections 64; }}\n"
            f"http {{ access_log off; {temp} include {folder / 'site.conf'}; }}\n")
        checked = subprocess.run([NGINX, "-t", "-p", str(folder), "-c", str(folder / "nginx.conf")],
                                 capture_output=True, text=True, timeout=60)
        assert checked.returncode == 0, checked.stderr
        self.process = subprocess.Popen([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)
        scheme = "https" if " ssl" in site else "http"
        self.url = f"{scheme}://{HOST}:{port}"
        _wait_for(self.url + "/api/challenges", self.process, "nginx")

    def stop(self) -> None:
        _stop(self.process)


def kit_caddyfile(port: int, backend: int, cert: Path, key: Path, folder: Path) -> str:
    """deploy/Caddyfile as shipped, its site on https://127.0.0.1:PORT with the test's
    certificate (no certificate authority to ask) and backend port, Caddy's admin API off."""
    text = (DEPLOY / "Caddyfile").read_text()
    text = text.replace("league.example.org {", f"https://{HOST}:{port} {{\n\ttls {cert} {key}", 1)
    text = text.replace("reverse_proxy 127.0.0.1:8000", f"reverse_proxy {HOST}:{backend}")
    return ("{\n\tadmin off\n\tauto_https disable_redirects\n"
            f"\tstorage file_system {folder / 'data'}\n}}\n\n" + text)


class Caddy:
    def __init__(self, folder: Path, caddyfile: str, port: int) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "Caddyfile").write_text(caddyfile)
        env = {**os.environ, "XDG_DATA_HOME": str(folder / "data"), "XDG_CONFIG_HOME": str(folder / "config"),
               "HOME": str(folder)}
        self.process = subprocess.Popen([CADDY, "run", "--config", str(folder / "Caddyfile"), "--adapter",
                                         "caddyfile"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        env=env, start_new_session=True)
        self.url = f"https://{HOST}:{port}"
        _wait_for(self.url + "/api/challenges", self.process, "caddy")

    def stop(self) -> None:
        _stop(self.process)
