"""A real SAML 2.0 identity provider on loopback for the tests: pysaml2's IdP server (Debian's
python3-pysaml2, signing with xmlsec1).

Usage: /usr/bin/python3 saml-idp.py <key.pem> <cert.pem>
Prints "READY <port>" once it listens on 127.0.0.1. Endpoints (JSON unless said):
  GET  /metadata       the IdP's metadata XML
  POST /register-sp    body: an SP's metadata XML; the IdP answers that SP from now on
  POST /next           {"user": {...}, "mode": "..."}: who signs in at the next /sso, and how
  GET  /sso            HTTP-Redirect binding: the SP's AuthnRequest; answers
                       {"acs", "SAMLResponse", "RelayState", "inResponseTo"} (what the browser would post)
  POST /unsolicited    {"user", "mode", "spEntityId", "acs", "relayState"}: an IdP-initiated response

Modes: good (assertion and response signed), assertion-only (only the assertion signed),
response-only (only the response signed), unsigned,
expired (NotOnOrAfter ten minutes ago), wrong-audience, wrong-recipient, other-issuer (another
IdP's entity id, signed with the same key: an IdP that signs for several entities).
"""

import base64
import html
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from saml2 import BINDING_HTTP_REDIRECT
from saml2.config import IdPConfig
from saml2.metadata import create_metadata_string
from saml2.saml import NAME_FORMAT_BASIC, NAMEID_FORMAT_PERSISTENT, NameID
from saml2.server import Server

KEY, CERT, XMLSEC1 = sys.argv[1], sys.argv[2], sys.argv[3]
AUTHN = {"class_ref": "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport"}


def make_server(base, minutes, entity_id=None):
    config = IdPConfig()
    config.load(
        {
            "entityid": entity_id or f"{base}/metadata",
            "service": {
                "idp": {
                    "name": "Gatehouse test IdP",
                    "endpoints": {"single_sign_on_service": [(f"{base}/sso", BINDING_HTTP_REDIRECT)]},
                    "policy": {
                        "default": {
                            "lifetime": {"minutes": minutes},
                            "attribute_restrictions": None,
                            "name_form": NAME_FORMAT_BASIC,
                        }
                    },
                    "name_id_format": [NAMEID_FORMAT_PERSISTENT],
                    "want_authn_requests_signed": False,
                }
            },
            "key_file": KEY,
            "cert_file": CERT,
            "xmlsec_binary": XMLSEC1,
            "metadata": {},
        }
    )
    server = Server(config=config)
    # A second SP the IdP knows, so a response can name another audience (wrong-audience).
    server.metadata.load("inline", ELSEWHERE_SP)
    return server


ELSEWHERE_SP = """<?xml version="1.0"?>
<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://elsewhere.example/sp">
  <SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol" WantAssertionsSigned="true">
    <AssertionConsumerService index="1" isDefault="true"
      Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://elsewhere.example/acs"/>
  </SPSSODescriptor>
</EntityDescriptor>
"""


state = {"next": None, "servers": None, "sp_metadata": []}


def servers():
    return state["servers"]


def respond(user, mode, in_response_to, acs, sp_entity_id):
    server = servers()[{"expired": "expired", "other-issuer": "other"}.get(mode, "normal")]
    identity = {"mail": [user["email"]], "displayName": [user.get("name", "Test User")]}
    if user.get("groups"):
        identity["groups"] = list(user["groups"])
    audience = "https://elsewhere.example/sp" if mode == "wrong-audience" else sp_entity_id
    destination = "https://elsewhere.example/acs" if mode == "wrong-recipient" else acs
    signed = mode != "unsigned"
    response = server.create_authn_response(
        identity,
        in_response_to,
        destination,
        audience,
        userid=user["id"],
        name_id=NameID(format=NAMEID_FORMAT_PERSISTENT, text=user["id"]),
        authn=AUTHN,
        sign_response=signed and mode != "assertion-only",
        sign_assertion=signed and mode != "response-only",
        sign_alg="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
        digest_alg="http://www.w3.org/2001/04/xmlenc#sha256",
    )
    # What the IdP's auto-posting form (HTTP-POST binding) carries: the response, base64.
    return base64.b64encode(f"{response}".encode()).decode()


def auto_post_form(acs, encoded, relay_state):
    fields = "".join(
        f'<input type="hidden" name="{name}" value="{html.escape(value, quote=True)}">'
        for name, value in (("SAMLResponse", encoded), ("RelayState", relay_state))
    )
    return (
        '<!doctype html><html lang="en"><head><title>Signing in</title></head>'
        f'<body><form method="post" action="{html.escape(acs, quote=True)}">'
        f'{fields}<button type="submit">Continue to the application</button></form></body></html>'
    )


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body, content_type="application/json"):
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        length = int(self.headers.get("Content-Length", "0"))
        return self.rfile.read(length).decode()

    def do_GET(self):
        url = urlparse(self.path)
        try:
            if url.path == "/metadata":
                return self.reply(200, create_metadata_string(None, servers()["normal"].config, sign=False).decode(), "application/xml")
            if url.path == "/sso":
                query = parse_qs(url.query)
                request = servers()["normal"].parse_authn_request(query["SAMLRequest"][0], BINDING_HTTP_REDIRECT)
                message = request.message
                sp_entity_id = message.issuer.text
                acs = message.assertion_consumer_service_url
                # A browser may send the same request twice (a retried GET): it gets the same form.
                answered = state.setdefault("forms", {})
                if message.id in answered:
                    return self.reply(200, answered[message.id], "text/html; charset=utf-8")
                pending = state["next"]
                state["next"] = None
                if pending is None:
                    return self.reply(409, {"error": "no user set with /next"})
                encoded = respond(pending["user"], pending.get("mode", "good"), message.id, acs, sp_entity_id)
                relay_state = query.get("RelayState", [""])[0]
                if pending.get("form"):
                    # A browser's way: the HTTP-POST binding's form (the person presses Continue, as at many IdPs).
                    answered[message.id] = auto_post_form(acs, encoded, relay_state)
                    return self.reply(200, answered[message.id], "text/html; charset=utf-8")
                return self.reply(
                    200,
                    {
                        "acs": acs,
                        "SAMLResponse": encoded,
                        "RelayState": query.get("RelayState", [""])[0],
                        "inResponseTo": message.id,
                    },
                )
            return self.reply(404, {"error": "not found"})
        except Exception as error:  # noqa: BLE001 - a test harness reports every failure
            return self.reply(500, {"error": repr(error)})

    def do_POST(self):
        url = urlparse(self.path)
        try:
            if url.path == "/register-sp":
                xml = self.body()
                for server in servers().values():
                    server.metadata.load("inline", xml)
                return self.reply(200, {"ok": True})
            if url.path == "/next":
                state["next"] = json.loads(self.body())
                return self.reply(200, {"ok": True})
            if url.path == "/unsolicited":
                body = json.loads(self.body())
                encoded = respond(body["user"], body.get("mode", "good"), None, body["acs"], body["spEntityId"])
                return self.reply(200, {"acs": body["acs"], "SAMLResponse": encoded, "RelayState": body.get("relayState", "")})
            return self.reply(404, {"error": "not found"})
        except Exception as error:  # noqa: BLE001
            return self.reply(500, {"error": repr(error)})


def main():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port = httpd.server_address[1]
    base = f"http://127.0.0.1:{port}"
    state["servers"] = {
        "normal": make_server(base, 5),
        "expired": make_server(base, -10),
        "other": make_server(base, 5, f"{base}/other-idp"),
    }
    print(f"READY {port}", flush=True)
    httpd.serve_forever()


if __name__ == "__main__":
    main()
