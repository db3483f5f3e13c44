/**
 * The API reference viewer: a small page of our own that reads /openapi.json and lists every
 * operation with its parameters, body and replies. Written here rather than taken from a package so
 * consumers install no viewer (Swagger UI's package pulled a telemetry install script into them).
 * Text goes into the page through textContent only: nothing in the document is read as HTML.
 */

export const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gatehouse API reference</title>
<link rel="stylesheet" href="reference/viewer.css">
</head>
<body>
<header>
<h1 id="title">Gatehouse API reference</h1>
<p id="description"></p>
<p><a href="openapi.json">openapi.json</a> · <label>Filter <input id="filter" type="search" placeholder="path or summary"></label></p>
</header>
<main id="reference"><p>Loading the OpenAPI document…</p></main>
<script src="reference/viewer.js"></script>
</body>
</html>`;

export const VIEWER_STYLES = `body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 70rem; padding: 1rem 1.5rem; color: #1d2433; }
header { border-bottom: 1px solid #d5d9e0; margin-bottom: 1rem; }
h2 { margin: 1.5rem 0 .5rem; text-transform: capitalize; }
details.operation { border: 1px solid #d5d9e0; border-radius: 6px; margin: .4rem 0; }
details.operation > summary { cursor: pointer; padding: .45rem .6rem; display: flex; gap: .75rem; align-items: baseline; }
details.operation[open] > summary { border-bottom: 1px solid #d5d9e0; }
.method { font: 600 12px/1.6 ui-monospace, monospace; min-width: 4.2rem; text-align: center; border-radius: 4px; color: #fff; background: #4b5563; }
.method.get { background: #1d6fb8; } .method.post { background: #1f8a4c; } .method.delete { background: #b42318; }
.path { font-family: ui-monospace, monospace; }
.summary { color: #4b5563; }
.body { padding: .25rem .9rem .75rem; }
.lock { font-size: 12px; color: #92400e; }
pre { background: #f4f5f7; padding: .5rem .7rem; border-radius: 4px; overflow-x: auto; font-size: 13px; margin: .25rem 0; }
table { border-collapse: collapse; } td, th { text-align: left; padding: .15rem .8rem .15rem 0; vertical-align: top; }
.status { font-family: ui-monospace, monospace; font-weight: 600; }
.hidden { display: none; }
`;

export const VIEWER_SCRIPT = `"use strict";
(function () {
  var MAX_DEPTH = 8;
  var root = document.getElementById("reference");

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function refName(ref) {
    return ref.split("/").pop();
  }

  function resolve(doc, value) {
    if (!value || typeof value.$ref !== "string") return value;
    var target = doc;
    var parts = value.$ref.replace(/^#\\//, "").split("/");
    for (var i = 0; i < parts.length && target; i++) target = target[parts[i]];
    return target || value;
  }

  // A schema as TypeScript-like text: enough to see names, types, optional keys and defaults.
  // depth bounds the recursion; level is how deep in objects the text is, for its indentation.
  function typeText(schema, depth, level) {
    level = level || 0;
    if (!schema || typeof schema !== "object") return "unknown";
    if (depth > MAX_DEPTH) return "…";
    if (schema.$ref) return refName(schema.$ref);
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    if (schema.enum) return schema.enum.map(function (v) { return JSON.stringify(v); }).join(" | ");
    if (schema.allOf) return schema.allOf.map(function (s) { return typeText(s, depth + 1, level); }).join(" & ");
    var union = schema.anyOf || schema.oneOf;
    if (union) return union.map(function (s) { return typeText(s, depth + 1, level); }).join(" | ");
    var type = schema.type;
    if (Array.isArray(type)) return type.map(function (t) { return typeText(Object.assign({}, schema, { type: t }), depth, level); }).join(" | ");
    if (type === "array") return "Array<" + typeText(schema.items, depth + 1, level) + ">";
    if (type === "object" || schema.properties) {
      var keys = Object.keys(schema.properties || {});
      if (keys.length === 0) {
        return schema.additionalProperties && typeof schema.additionalProperties === "object"
          ? "{ [key: string]: " + typeText(schema.additionalProperties, depth + 1, level) + " }"
          : "object";
      }
      var required = schema.required || [];
      var pad = new Array(level + 2).join("  ");
      var lines = keys.map(function (key) {
        var inner = schema.properties[key];
        var optional = required.indexOf(key) === -1 ? "?" : "";
        var fallback = inner && inner.default !== undefined ? " = " + JSON.stringify(inner.default) : "";
        return pad + key + optional + ": " + typeText(inner, depth + 1, level + 1) + fallback;
      });
      return "{\\n" + lines.join("\\n") + "\\n" + pad.slice(2) + "}";
    }
    var text = type || "unknown";
    if (schema.format) text += " (" + schema.format + ")";
    if (schema.minLength !== undefined || schema.maxLength !== undefined)
      text += " [" + (schema.minLength || 0) + ".." + (schema.maxLength !== undefined ? schema.maxLength : "") + "]";
    return text;
  }

  function schemaBlock(doc, content) {
    var box = el("div");
    Object.keys(content || {}).forEach(function (type) {
      box.appendChild(el("div", "summary", type));
      box.appendChild(el("pre", "", typeText(resolve(doc, content[type].schema), 0, 0)));
    });
    return box;
  }

  function operationBlock(doc, method, path, op) {
    var details = el("details", "operation");
    details.dataset.search = (method + " " + path + " " + (op.summary || "") + " " + (op.operationId || "")).toLowerCase();
    var head = el("summary");
    head.appendChild(el("span", "method " + method, method.toUpperCase()));
    head.appendChild(el("span", "path", path));
    head.appendChild(el("span", "summary", op.summary || ""));
    if (op.security && op.security.length) head.appendChild(el("span", "lock", "session"));
    details.appendChild(head);

    var body = el("div", "body");
    if (op.operationId) body.appendChild(el("p", "summary", "operationId: " + op.operationId));
    var params = (op.parameters || []).map(function (p) { return resolve(doc, p); });
    if (params.length) {
      body.appendChild(el("h4", "", "Parameters"));
      var table = el("table");
      params.forEach(function (p) {
        var row = el("tr");
        row.appendChild(el("td", "path", p.name + (p.required ? "" : "?")));
        row.appendChild(el("td", "summary", p.in));
        row.appendChild(el("td", "", typeText(p.schema, 1, 0)));
        table.appendChild(row);
      });
      body.appendChild(table);
    }
    if (op.requestBody) {
      body.appendChild(el("h4", "", "Request body"));
      body.appendChild(schemaBlock(doc, resolve(doc, op.requestBody).content));
    }
    body.appendChild(el("h4", "", "Replies"));
    Object.keys(op.responses || {}).forEach(function (status) {
      var reply = resolve(doc, op.responses[status]);
      var line = el("p");
      line.appendChild(el("span", "status", status + " "));
      line.appendChild(document.createTextNode(reply.description || ""));
      body.appendChild(line);
      if (reply.content) body.appendChild(schemaBlock(doc, reply.content));
    });
    details.appendChild(body);
    return details;
  }

  function render(doc) {
    document.getElementById("title").textContent = doc.info.title + " " + doc.info.version;
    document.getElementById("description").textContent = doc.info.description || "";
    root.textContent = "";
    var sections = {};
    var order = (doc.tags || []).map(function (t) { return t.name; });
    Object.keys(doc.paths).forEach(function (path) {
      Object.keys(doc.paths[path]).forEach(function (method) {
        var op = doc.paths[path][method];
        var tag = (op.tags && op.tags[0]) || "other";
        if (!sections[tag]) {
          sections[tag] = el("section");
          sections[tag].appendChild(el("h2", "", tag));
          if (order.indexOf(tag) === -1) order.push(tag);
        }
        sections[tag].appendChild(operationBlock(doc, method, path, op));
      });
    });
    order.forEach(function (tag) { if (sections[tag]) root.appendChild(sections[tag]); });
  }

  document.getElementById("filter").addEventListener("input", function (event) {
    var words = event.target.value.toLowerCase().split(/\\s+/).filter(Boolean);
    root.querySelectorAll("details.operation").forEach(function (node) {
      var hit = words.every(function (w) { return node.dataset.search.indexOf(w) !== -1; });
      node.classList.toggle("hidden", !hit);
    });
  });

  fetch("openapi.json", { credentials: "same-origin" })
    .then(function (response) {
      if (!response.ok) throw new Error("openapi.json answered " + response.status);
      return response.json();
    })
    .then(render)
    .catch(function (error) { root.textContent = "Could not load the OpenAPI document: " + error.message; });
})();
`;
