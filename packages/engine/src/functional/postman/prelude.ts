/**
 * The JavaScript that builds Postman's script API inside the QuickJS VM (docs/adr/0028-postman-sandbox.md).
 * It runs in the VM, never in Node: it sees only the VM's own built-ins, Chai (evaluated just before it,
 * as `__aqaChai`) and the host bridge `__aqaHost` (log, test, validate, library), which it captures and
 * removes from the global object. Its value is `{setup, reset}`, kept by the host and never on the
 * global object: `setup(stateJson)` gives one script its own state (pm, variables, request, response,
 * tests, timers, pending sendRequests) and returns the controller the host drives: take() (new
 * pm.sendRequest calls), deliver(id, json), timerDue(), runTimers(), finish(), result(). `reset()` puts
 * the global object back as the prelude left it, so the next script of the same warm VM starts from the
 * same globals (docs/adr/0028-postman-sandbox.md §1 "One warm VM per virtual user").
 * Kept as plain ES2020 text with no backticks or dollar-brace, so it sits in a String.raw literal.
 */
export const PRELUDE = String.raw`
(function () {
  'use strict';
  var G = globalThis;
  var host = G.__aqaHost, chai = G.__aqaChai;
  delete G.__aqaHost; delete G.__aqaChai;
  var RESP = Symbol('aqa.response');
  // Postman's sandbox ships Sugar.js, whose String#has is the legacy snippet's responseBody.has("…")
  // ("Response body: Contains string"): a string found in it, or a RegExp that matches it. The rest of
  // Sugar is not here (docs/adr/0028-postman-sandbox.md §3).
  Object.defineProperty(String.prototype, 'has', {
    value: function has(find) { return find instanceof RegExp ? String(this).search(find) !== -1 : String(this).indexOf(String(find)) !== -1; },
    writable: true, configurable: true, enumerable: false
  });
  var ADR = ' (docs/adr/0028-postman-sandbox.md)';

  function str(v) {
    if (typeof v === 'string') return v;
    if (v === undefined) return '';
    if (v !== null && typeof v === 'object') { try { return JSON.stringify(v); } catch (e) { return String(v); } }
    return String(v);
  }
  function fmt(v) {
    if (typeof v === 'string') return v;
    if (v instanceof Error) return v.name + ': ' + v.message;
    if (typeof v === 'function') return '[Function' + (v.name ? ': ' + v.name : '') + ']';
    if (v !== null && typeof v === 'object') { try { return JSON.stringify(v); } catch (e) { return String(v); } }
    return String(v);
  }
  function copy(o) { var r = {}; for (var k in o) r[k] = o[k]; return r; }
  function lower(s) { return String(s).toLowerCase(); }

  // ---- console (a new one for each script: a script may replace its methods)
  function newConsole() {
    var cons = {};
    ['log', 'info', 'warn', 'error', 'debug'].forEach(function (level) {
      cons[level] = function () {
        host.log(level === 'debug' ? 'log' : level, Array.prototype.map.call(arguments, fmt).join(' '));
      };
    });
    return cons;
  }

  // ---- base64 (Latin-1, as browsers' atob/btoa)
  var B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  G.btoa = function (input) {
    var s = String(input), out = '';
    for (var i = 0; i < s.length; i += 3) {
      var a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
      if (a > 255 || b > 255 || c > 255) throw new Error('btoa: the string has characters outside Latin-1');
      var n = (a << 16) | ((b || 0) << 8) | (c || 0);
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + (i + 1 < s.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < s.length ? B64[n & 63] : '=');
    }
    return out;
  };
  G.atob = function (input) {
    var s = String(input).replace(/[\s=]+/g, ''), out = '', bits = 0, acc = 0;
    for (var i = 0; i < s.length; i++) {
      var v = B64.indexOf(s[i]);
      if (v < 0) throw new Error('atob: the string is not valid base64');
      acc = (acc << 6) | v; bits += 6;
      if (bits >= 8) { bits -= 8; out += String.fromCharCode((acc >> bits) & 255); }
    }
    return out;
  };

  // ---- the libraries Postman's sandbox gives (ADR 0028 §2 "Libraries"): loaded into this VM the first
  // time a script reads one, as a CommonJS module (module.exports), and kept for the VM's later scripts.
  var libraries = Object.create(null), loadingLibrary = false;
  function library(name) {
    if (!(name in libraries)) {
      var module = { exports: {} };
      // The host's own text (node_modules), never the script's: evaluated once, outside any strict scope.
      // While it loads, the globals it may look at (lodash reads the global _ to restore it by
      // noConflict) are undefined, as in a fresh realm.
      loadingLibrary = true;
      try {
        (0, G.Function)('module', 'exports', host.library(name))(module, module.exports);
      } finally {
        loadingLibrary = false;
        host.loaded();
      }
      libraries[name] = module.exports;
    }
    return libraries[name];
  }
  function settable(name, get) {
    Object.defineProperty(G, name, {
      configurable: true,
      get: get,
      set: function (v) { Object.defineProperty(G, name, { value: v, writable: true, configurable: true, enumerable: true }); }
    });
  }
  // The globals as Postman has them: _ is lodash 3 (require('lodash') is lodash 4), CryptoJS crypto-js.
  settable('_', function () { return loadingLibrary ? undefined : library('lodash3'); });
  settable('CryptoJS', function () { return loadingLibrary ? undefined : library('crypto-js'); });
  // ---- what the sandbox does not have: a clear error instead of a bare ReferenceError
  ['cheerio', 'xml2Json', 'moment', 'Backbone', 'Buffer', 'xml2js'].forEach(function (name) {
    settable(name, function () {
      if (loadingLibrary) return undefined;
      throw new ReferenceError(name + ' is not available in the AnybodyQA Postman sandbox' + ADR);
    });
  });
  var MODULES = { lodash: 'lodash', 'crypto-js': 'crypto-js', moment: 'moment' };
  G.require = function (name) {
    var id = String(name);
    if (Object.prototype.hasOwnProperty.call(MODULES, id)) return library(MODULES[id]);
    if (id === 'chai') return chai;
    if (id === 'atob') return G.atob;
    if (id === 'btoa') return G.btoa;
    throw new Error("require('" + id + "') is not available in the AnybodyQA Postman sandbox: it has lodash, crypto-js, moment, chai, atob and btoa" + ADR);
  };

  // ---- lists of headers (Postman's HeaderList, the parts scripts use)
  function headerList(items, onChange) {
    var list = items.map(function (h) { return { key: String(h.key), value: String(h.value) }; });
    function find(key) { var k = lower(key); for (var i = 0; i < list.length; i++) if (lower(list[i].key) === k) return i; return -1; }
    function norm(h, v) {
      if (typeof h === 'string') {
        if (v !== undefined) return { key: h, value: str(v) };
        var at = h.indexOf(':');
        return at < 0 ? { key: h.trim(), value: '' } : { key: h.slice(0, at).trim(), value: h.slice(at + 1).trim() };
      }
      return { key: String(h.key), value: str(h.value) };
    }
    var api = {
      get: function (key) { var i = find(key); return i < 0 ? undefined : list[i].value; },
      one: function (key) { var i = find(key); return i < 0 ? undefined : list[i]; },
      has: function (key, value) { var i = find(key); return i >= 0 && (arguments.length < 2 || list[i].value === value); },
      add: function (h, v) { list.push(norm(h, v)); onChange && onChange(); },
      append: function (h, v) { api.add(h, v); },
      upsert: function (h, v) { var n = norm(h, v), i = find(n.key); if (i < 0) list.push(n); else list[i].value = n.value; onChange && onChange(); },
      remove: function (key) {
        list = list.filter(function (h) { return typeof key === 'function' ? !key(h) : lower(h.key) !== lower(key); });
        onChange && onChange();
      },
      clear: function () { list = []; onChange && onChange(); },
      toObject: function () { var o = {}; list.forEach(function (h) { o[h.key] = h.value; }); return o; },
      all: function () { return list.slice(); },
      each: function (fn) { list.forEach(fn); },
      map: function (fn) { return list.map(fn); },
      filter: function (fn) { return list.filter(fn); },
      find: function (fn) { return list.find(fn); },
      count: function () { return list.length; },
      toJSON: function () { return list.slice(); },
      toString: function () { return list.map(function (h) { return h.key + ': ' + h.value; }).join('\n'); }
    };
    return api;
  }

  // ---- variables
  function scope(values, readOnly, name) {
    var api = {
      get: function (k) { return values[k]; },
      has: function (k) { return Object.prototype.hasOwnProperty.call(values, k); },
      toObject: function () { return copy(values); },
      toJSON: function () { return copy(values); },
      replaceIn: function (t) { return replaceIn(t); }
    };
    if (!readOnly) {
      api.set = function (k, v) { values[String(k)] = v; };
      api.unset = function (k) { delete values[k]; };
      api.clear = function () { for (var k in values) delete values[k]; };
    } else {
      api.set = api.unset = api.clear = function () { throw new TypeError(name + ' is read-only'); };
    }
    return api;
  }

  function uuid() {
    var h = '0123456789abcdef', s = '';
    for (var i = 0; i < 36; i++) {
      if (i === 8 || i === 13 || i === 18 || i === 23) s += '-';
      else if (i === 14) s += '4';
      else if (i === 19) s += h[8 + Math.floor(Math.random() * 4)];
      else s += h[Math.floor(Math.random() * 16)];
    }
    return s;
  }
  var dynamic = {
    $guid: uuid,
    $randomUUID: uuid,
    $timestamp: function () { return String(Math.floor(Date.now() / 1000)); },
    $isoTimestamp: function () { return new Date().toISOString(); },
    $randomInt: function () { return String(Math.floor(Math.random() * 1001)); },
    $randomBoolean: function () { return String(Math.random() < 0.5); },
    $randomAlphaNumeric: function () { return 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(Math.random() * 36)]; }
  };

  // One script's state, set afresh by setup(); gen tells its test results from a former script's late ones.
  var state, vars, gen = 0, tests = [], legacyTests = {}, nextRequest, nextRequestSet = false;
  var timers = [], timerSeq = 0, sends = [], sendSeq = 0, waiting = {};

  function lookup(k) {
    var order = [vars.local, vars.data, vars.environment, vars.collection, vars.globals];
    for (var i = 0; i < order.length; i++) if (Object.prototype.hasOwnProperty.call(order[i], k)) return { found: true, value: order[i][k] };
    return { found: false };
  }
  function replaceIn(text) {
    if (typeof text !== 'string') return text;
    var out = text;
    for (var depth = 0; depth < 20; depth++) {
      var changed = false;
      out = out.replace(/\{\{([^{}]+)\}\}/g, function (m, name) {
        if (name.charAt(0) === '$' && dynamic[name]) { changed = true; return dynamic[name](); }
        var r = lookup(name);
        if (!r.found) return m;
        changed = true;
        return str(r.value);
      });
      if (!changed) break;
    }
    return out;
  }

  // ---- tests
  function record(g, index, name, passed, error, skipped) {
    var t = { name: name, passed: passed };
    if (error !== undefined) t.error = error;
    if (skipped) t.skipped = true;
    host.test(g, index, JSON.stringify(t));
  }
  function errText(e) {
    if (e && typeof e === 'object' && 'message' in e) return String(e.message);
    return fmt(e);
  }
  function test(name, fn) {
    var index = tests.length, title = String(name), g = gen;
    tests.push(title);
    if (typeof fn !== 'function') { record(g, index, title, false, 'pm.test needs a function as its second argument'); return pm; }
    try {
      var r = fn();
      if (r && typeof r.then === 'function') {
        r.then(function () { record(g, index, title, true); }, function (e) { record(g, index, title, false, errText(e)); });
      } else record(g, index, title, true);
    } catch (e) { record(g, index, title, false, errText(e)); }
    return pm;
  }
  test.skip = function (name) { var index = tests.length; tests.push(String(name)); record(gen, index, String(name), true, undefined, true); return pm; };

  // ---- chai with Postman's response assertions (the messages are chai-postman's)
  var Assertion = chai.Assertion;
  function isResponse(o) { return !!(o && o[RESP]); }
  function mustBeResponse(a) {
    a.assert(isResponse(a._obj), 'expecting a postman response object but got #{this}', 'not expecting a postman response object');
  }
  var statusClasses = { info: 1, success: 2, redirection: 3, clientError: 4, serverError: 5 };
  Object.keys(statusClasses).forEach(function (name) {
    Assertion.addProperty(name, function () {
      mustBeResponse(this);
      var cls = Math.floor(this._obj.code / 100);
      this.assert(cls === statusClasses[name], 'expected response code to be #{exp}XX but found #{act}', 'expected response code to not be #{exp}XX', statusClasses[name], this._obj.code);
    });
  });
  Assertion.addProperty('error', function () {
    mustBeResponse(this);
    var cls = Math.floor(this._obj.code / 100);
    this.assert(cls === 4 || cls === 5, 'expected response code to be 4XX or 5XX but found #{act}', 'expected response code to not be 4XX or 5XX', null, this._obj.code);
  });
  // As chai-postman: the reason phrase (upper-cased) is checked first, then the code.
  function reasonThenCode(a, reason, code) {
    var wanted = reason.toUpperCase(), actual = String(a._obj.status).toUpperCase();
    a.assert(actual === wanted, 'expected response to have status reason #{exp} but got #{act}', 'expected response to not have status reason #{act}', wanted, actual);
    a.assert(a._obj.code === code, 'expected response to have status code #{exp} but got #{act}', 'expected response to not have status code #{act}', code, a._obj.code);
  }
  var reasons = { accepted: [202, 'Accepted'], withoutContent: [204, 'No Content'], badRequest: [400, 'Bad Request'], unauthorized: [401, 'Unauthorized'], unauthorised: [401, 'Unauthorized'], forbidden: [403, 'Forbidden'], notFound: [404, 'Not Found'], rateLimited: [429, 'Too Many Requests'] };
  Object.keys(reasons).forEach(function (name) {
    Assertion.addProperty(name, function () {
      mustBeResponse(this);
      reasonThenCode(this, reasons[name][1], reasons[name][0]);
    });
  });
  Assertion.overwriteProperty('ok', function (original) {
    return function () {
      if (!isResponse(this._obj)) return original.call(this);
      reasonThenCode(this, 'OK', 200);
    };
  });
  Assertion.addMethod('status', function (codeOrReason) {
    mustBeResponse(this);
    if (typeof codeOrReason === 'number') {
      this.assert(this._obj.code === codeOrReason, 'expected response to have status code #{exp} but got #{act}', 'expected response to not have status code #{act}', codeOrReason, this._obj.code);
    } else {
      this.assert(this._obj.status === codeOrReason, 'expected response to have status reason #{exp} but got #{act}', 'expected response to not have status reason #{act}', codeOrReason, this._obj.status);
    }
  });
  Assertion.addMethod('statusCode', function (code) {
    mustBeResponse(this);
    this.assert(this._obj.code === Number(code), 'expected response to have status code #{exp} but got #{act}', 'expected response to not have status code #{act}', Number(code), this._obj.code);
  });
  Assertion.addMethod('header', function (key, value) {
    var o = this._obj, what = isResponse(o) ? 'response' : 'request';
    this.assert(o && o.headers && o.headers.has(key), "expected " + what + " to have header with key '" + String(key) + "'", "expected " + what + " to not have header with key '" + String(key) + "'", true, !!(o && o.headers && o.headers.has(key)));
    if (arguments.length < 2) return;
    var actual = o.headers.get(key);
    this.assert(actual === value, "expected '" + String(key) + "' " + what + ' header to be #{exp} but got #{act}', "expected '" + String(key) + "' " + what + ' header to not be #{act}', value, actual);
  });
  function jsonOf(resp) { try { return { value: resp.json() }; } catch (e) { return { error: e.name + ': ' + e.message }; } }
  Assertion.addProperty('withBody', function () {
    mustBeResponse(this);
    this.assert(this._obj.text().length > 0, 'expected response to have content in body', 'expected response to not have content in body');
  });
  Assertion.addProperty('json', function () {
    mustBeResponse(this);
    var r = jsonOf(this._obj);
    this.assert(!r.error, 'expected response body to be a valid json but got error ' + r.error, 'expected response body not to be a valid json');
  });
  Assertion.addMethod('body', function (content) {
    mustBeResponse(this);
    var text = this._obj.text();
    if (arguments.length === 0) { this.assert(text.length > 0, 'expected response to have content in body', 'expected response to not have content in body'); return; }
    if (content instanceof RegExp) { this.assert(content.exec(text) !== null, 'expected response body text to match #{exp} but got #{act}', 'expected response body text #{act} to not match #{exp}', content, text); return; }
    if (content !== null && typeof content === 'object') {
      var j = jsonOf(this._obj).value;
      this.assert(chai.util.eql(j, content), 'expected response body json to equal #{exp} but got #{act}', 'expected response body json to not equal #{exp} but got #{act}', content, j);
      return;
    }
    this.assert(text === content, 'expected response body to equal #{exp} but got #{act}', 'expected response body to not equal #{exp}', content, text);
  });
  function pathGet(obj, path) {
    var parts = String(path).replace(/\[(\w+)\]/g, '.$1').split('.').filter(Boolean), cur = obj;
    for (var i = 0; i < parts.length; i++) {
      if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, parts[i])) return { found: false };
      cur = cur[parts[i]];
    }
    return { found: true, value: cur };
  }
  Assertion.addMethod('jsonBody', function (path, value) {
    mustBeResponse(this);
    var r = jsonOf(this._obj);
    if (arguments.length === 0) { this.assert(!r.error, 'expected response body to be a valid json but got error ' + r.error, 'expected response body not to be a valid json'); return; }
    if (path !== null && typeof path === 'object') {
      this.assert(chai.util.eql(r.value, path), 'expected response body json to equal #{exp} but got #{act}', 'expected response body json to not equal #{exp} but got #{act}', path, r.value);
      return;
    }
    var at = pathGet(r.value, path);
    this.assert(at.found, 'expected #{act} in response to contain property #{exp}', 'expected #{act} in response to not contain property #{exp}', path, r.value);
    if (arguments.length > 1) {
      this.assert(chai.util.eql(at.value, value), 'expected response body json at "' + path + '" to contain #{exp} but got #{act}', 'expected response body json at "' + path + '" to not contain #{exp} but got #{act}', value, at.value);
    }
  });
  function validate(schema, data) { return JSON.parse(host.validate(JSON.stringify(schema), JSON.stringify(data === undefined ? null : data))); }
  Assertion.addMethod('jsonSchema', function (schema) {
    var data = isResponse(this._obj) ? jsonOf(this._obj).value : this._obj;
    var r = validate(schema, data);
    this.assert(r.valid, 'expected data to satisfy schema but found following errors: \n' + r.errors, 'expected data to not satisfy schema', true, r.valid);
  });

  function newTv4() {
    var tv4 = {
      error: null, valid: true, missing: [],
      validate: function (data, schema) {
        var r = validate(schema, data);
        G.tv4.valid = r.valid;
        G.tv4.error = r.valid ? null : { message: r.errors };
        return r.valid;
      }
    };
    tv4.validateResult = function (data, schema) { var ok = G.tv4.validate(data, schema); return { valid: ok, error: G.tv4.error, missing: [] }; };
    return tv4;
  }

  // ---- responses (pm.response and pm.sendRequest's)
  function response(r) {
    var res = {
      code: r.code, status: r.status, responseTime: r.responseTime, responseSize: r.responseSize,
      headers: headerList(r.headers),
      text: function () { return r.body; },
      json: function () {
        if (r.body === undefined) { var none = new SyntaxError('"undefined" is not valid JSON'); none.name = 'JSONError'; throw none; }
        try { return JSON.parse(r.body); } catch (e) { var err = new SyntaxError(e.message); err.name = 'JSONError'; throw err; }
      },
      reason: function () { return r.status; },
      details: function () { return { code: r.code, name: r.status }; },
      size: function () { return { body: r.body === undefined ? 0 : r.body.length, header: 0, total: r.responseSize }; },
      toJSON: function () { return { code: r.code, status: r.status, header: res.headers.all(), body: r.body, responseTime: r.responseTime }; }
    };
    Object.defineProperty(res, RESP, { value: true });
    Object.defineProperty(res, 'to', { get: function () { return chai.expect(res).to; } });
    Object.defineProperty(res, 'body', { get: function () { return r.body; } });
    return res;
  }

  // ---- the request being sent
  function url(initial) {
    var s = String(initial);
    function parts() {
      var m = /^([a-zA-Z][\w+.-]*:\/\/)?([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/.exec(s) || [];
      return { protocol: m[1] || '', host: m[2] || '', path: m[3] || '', query: (m[4] || '').slice(1), hash: m[5] || '' };
    }
    function queryPairs() {
      var q = parts().query;
      return q ? q.split('&').map(function (kv) { var at = kv.indexOf('='); return at < 0 ? { key: kv, value: null } : { key: kv.slice(0, at), value: kv.slice(at + 1) }; }) : [];
    }
    function setQuery(pairs) {
      var p = parts();
      var q = pairs.map(function (kv) { return kv.value === null ? kv.key : kv.key + '=' + kv.value; }).join('&');
      s = p.protocol + p.host + p.path + (q ? '?' + q : '') + p.hash;
    }
    var u = {
      toString: function () { return s; },
      toJSON: function () { return s; },
      update: function (v) { s = String(v); },
      getHost: function () { return parts().host.replace(/:\d+$/, ''); },
      getPath: function () { return parts().path || '/'; },
      getQueryString: function () { return parts().query; },
      getPathWithQuery: function () { var p = parts(); return (p.path || '/') + (p.query ? '?' + p.query : ''); },
      query: {
        get: function (k) { var f = queryPairs().find(function (kv) { return kv.key === k; }); return f ? f.value : undefined; },
        has: function (k) { return queryPairs().some(function (kv) { return kv.key === k; }); },
        add: function (kv) { var q = queryPairs(); q.push(typeof kv === 'string' ? { key: kv.split('=')[0], value: kv.split('=').slice(1).join('=') } : { key: kv.key, value: kv.value == null ? null : String(kv.value) }); setQuery(q); },
        upsert: function (kv) { var q = queryPairs(), f = q.find(function (x) { return x.key === kv.key; }); if (f) f.value = kv.value == null ? null : String(kv.value); else q.push({ key: kv.key, value: kv.value == null ? null : String(kv.value) }); setQuery(q); },
        remove: function (k) { setQuery(queryPairs().filter(function (kv) { return typeof k === 'function' ? !k(kv) : kv.key !== k; })); },
        toObject: function () { var o = {}; queryPairs().forEach(function (kv) { o[kv.key] = kv.value; }); return o; },
        all: function () { return queryPairs(); },
        count: function () { return queryPairs().length; }
      }
    };
    Object.defineProperty(u, 'host', { get: function () { return u.getHost().split('.'); } });
    Object.defineProperty(u, 'path', { get: function () { return u.getPath().split('/').filter(Boolean); } });
    Object.defineProperty(u, 'protocol', { get: function () { return parts().protocol.replace('://', ''); } });
    return u;
  }
  function body(raw) {
    var b = {
      mode: 'raw', raw: raw === undefined ? '' : raw,
      toString: function () { return b.raw; },
      isEmpty: function () { return !b.raw; },
      update: function (v) { b.raw = typeof v === 'string' ? v : v && typeof v.raw === 'string' ? v.raw : str(v); }
    };
    return b;
  }
  function request(r) {
    var u = url(r.url), h = headerList(r.headers), b = r.body === undefined ? undefined : body(r.body), method = r.method;
    var req = {
      name: r.name,
      get url() { return u; },
      set url(v) { u = url(String(v)); },
      get method() { return method; },
      set method(v) { method = String(v).toUpperCase(); },
      get headers() { return h; },
      get body() { return b; },
      set body(v) { b = v === undefined || v === null ? undefined : body(typeof v === 'string' ? v : v.raw !== undefined ? String(v.raw) : str(v)); },
      addHeader: function (x) { h.add(x); },
      upsertHeader: function (x) { h.upsert(x); },
      removeHeader: function (k) { h.remove(k); },
      toJSON: function () { return { url: String(u), method: method, header: h.all(), body: b ? { mode: 'raw', raw: b.raw } : undefined }; }
    };
    Object.defineProperty(req, 'to', { get: function () { return chai.expect(req).to; } });
    return req;
  }

  // ---- pm.sendRequest
  function toHostRequest(r) {
    if (typeof r === 'string') return { name: '', method: 'GET', url: r, headers: [] };
    if (!r || typeof r !== 'object') throw new TypeError('pm.sendRequest needs a URL or a request object');
    var headers = [], raw = r.header !== undefined ? r.header : r.headers;
    if (Array.isArray(raw)) raw.forEach(function (x) { if (typeof x === 'string') { var at = x.indexOf(':'); headers.push({ key: x.slice(0, at).trim(), value: x.slice(at + 1).trim() }); } else if (x && !x.disabled) headers.push({ key: String(x.key), value: str(x.value) }); });
    else if (raw && typeof raw.all === 'function') headers = raw.all().map(function (x) { return { key: x.key, value: x.value }; });
    else if (raw && typeof raw === 'object') Object.keys(raw).forEach(function (k) { headers.push({ key: k, value: str(raw[k]) }); });
    var out = { name: '', method: String(r.method || 'GET').toUpperCase(), url: String(r.url), headers: headers };
    var b = r.body;
    if (typeof b === 'string') out.body = b;
    else if (b && b.mode === 'raw') out.body = str(b.raw);
    else if (b && b.mode === 'urlencoded') {
      out.body = (b.urlencoded || []).filter(function (x) { return !x.disabled; }).map(function (x) { return encodeURIComponent(x.key) + '=' + encodeURIComponent(str(x.value)); }).join('&');
      if (!headers.some(function (x) { return lower(x.key) === 'content-type'; })) headers.push({ key: 'Content-Type', value: 'application/x-www-form-urlencoded' });
    } else if (b && b.mode) throw new TypeError("pm.sendRequest: body mode '" + b.mode + "' is not supported in the AnybodyQA Postman sandbox" + ADR);
    return out;
  }
  function sendRequest(r, callback) {
    var id = ++sendSeq, hostReq = toHostRequest(r);
    sends.push({ id: id, request: hostReq });
    return new Promise(function (resolve, reject) {
      waiting[id] = function (outcome) {
        var err = outcome.error !== undefined ? new Error(outcome.error) : null;
        var res = err ? null : response(outcome.response);
        if (typeof callback === 'function') callback(err, res);
        if (err) { if (typeof callback !== 'function') reject(err); else resolve(null); } else resolve(res);
      };
    });
  }

  // ---- timers (run by the host's loop, within the script's time limit)
  G.setTimeout = function (fn, ms) { var id = ++timerSeq; timers.push({ id: id, due: Date.now() + (Number(ms) || 0), fn: fn, args: Array.prototype.slice.call(arguments, 2) }); return id; };
  G.clearTimeout = function (id) { timers = timers.filter(function (t) { return t.id !== id; }); };
  G.setImmediate = function (fn) { return G.setTimeout(fn, 0); };
  G.clearImmediate = G.clearTimeout;
  G.setInterval = function () { throw new Error('setInterval is not available in the AnybodyQA Postman sandbox' + ADR); };

  var pm;
  function setup(json) {
    state = JSON.parse(json);
    vars = state.variables;
    gen = state.gen;
    tests = []; legacyTests = {}; nextRequest = undefined; nextRequestSet = false;
    timers = []; timerSeq = 0; sends = []; sendSeq = 0; waiting = {};
    pm = {};
    G.console = newConsole();
    G.tv4 = newTv4();
    var isTest = state.event === 'test';
    var req = request(state.request);
    pm.info = { eventName: state.event, iteration: state.iteration, iterationCount: state.iterationCount, requestName: state.request.name, requestId: '' };
    pm.test = test;
    pm.expect = chai.expect;
    pm.environment = scope(vars.environment, false, 'pm.environment');
    pm.environment.name = '';
    pm.collectionVariables = scope(vars.collection, false, 'pm.collectionVariables');
    pm.globals = scope(vars.globals, false, 'pm.globals');
    pm.iterationData = scope(vars.data, true, 'pm.iterationData');
    pm.variables = {
      get: function (k) { return lookup(k).value; },
      has: function (k) { return lookup(k).found; },
      set: function (k, v) { vars.local[String(k)] = v; },
      unset: function (k) { delete vars.local[k]; },
      clear: function () { for (var k in vars.local) delete vars.local[k]; },
      toObject: function () { var o = {}; [vars.globals, vars.collection, vars.environment, vars.data, vars.local].forEach(function (s) { for (var k in s) o[k] = s[k]; }); return o; },
      replaceIn: replaceIn
    };
    pm.request = req;
    // No answer (a request error): Newman still runs the test script, with an empty response.
    if (isTest) pm.response = response(state.response || { headers: [] });
    pm.sendRequest = sendRequest;
    pm.execution = { setNextRequest: function (n) { nextRequestSet = true; nextRequest = n === null || n === undefined ? null : String(n); } };
    pm.setNextRequest = pm.execution.setNextRequest;
    pm.visualizer = { set: function () {}, clear: function () {} };
    if (state.cookies) {
      var jar = state.cookies;
      var cookie = function (n) { for (var i = 0; i < jar.length; i++) if (jar[i].name === n) return jar[i]; return undefined; };
      pm.cookies = {
        has: function (n) { return cookie(n) !== undefined; },
        get: function (n) { var c = cookie(n); return c === undefined ? undefined : c.value; },
        toObject: function () { var o = {}; jar.forEach(function (c) { o[c.name] = c.value; }); return o; }
      };
    }
    (state.cookies ? ['vault', 'require'] : ['cookies', 'vault', 'require']).forEach(function (name) {
      Object.defineProperty(pm, name, { get: function () { throw new ReferenceError('pm.' + name + ' is not available in the AnybodyQA Postman sandbox' + ADR); } });
    });
    pm.execution.skipRequest = function () { throw new Error('pm.execution.skipRequest is not available in the AnybodyQA Postman sandbox' + ADR); };
    G.pm = pm;

    // The legacy (pre-pm) globals.
    G.tests = legacyTests;
    G.environment = copy(vars.environment);
    G.globals = copy(vars.globals);
    G.data = copy(vars.data);
    G.iteration = state.iteration;
    G.request = { url: state.request.url, method: state.request.method, headers: req.headers.toObject(), data: state.request.body === undefined ? {} : state.request.body, name: state.request.name, description: state.request.description };
    if (isTest) {
      var r = state.response || {};
      G.responseBody = r.body;
      G.responseCode = { code: r.code, name: r.status, detail: r.status };
      G.responseTime = r.responseTime;
      G.responseHeaders = pm.response.headers.toObject();
      G.responseCookies = (state.cookies || []).map(function (c) { return { name: c.name, value: c.value }; });
    }
    // postman.* writes through to the legacy environment and globals objects too (pm.* does not), and
    // keeps a value as its toString(): an array [1, 2] is "1,2", an object "[object Object]" — as
    // postman-sandbox's legacy interface does (measured with Newman 6.2, ADR 0029 §3 "Parity with Newman").
    var legacyEnv = G.environment, legacyGlobals = G.globals;
    var legacyStr = function (v) { return (v === false || v) && typeof (v && v.toString) === 'function' ? String(v.toString()) : str(v); };
    G.postman = {
      setEnvironmentVariable: function (k, v) { v = legacyStr(v); legacyEnv[k] = v; vars.environment[String(k)] = v; },
      getEnvironmentVariable: function (k) { return vars.environment[k]; },
      clearEnvironmentVariable: function (k) { if (k) delete legacyEnv[k]; delete vars.environment[k]; },
      clearEnvironmentVariables: function () { for (var k in vars.environment) delete vars.environment[k]; for (var l in legacyEnv) delete legacyEnv[l]; },
      setGlobalVariable: function (k, v) { v = legacyStr(v); legacyGlobals[k] = v; vars.globals[String(k)] = v; },
      getGlobalVariable: function (k) { return vars.globals[k]; },
      clearGlobalVariable: function (k) { if (k) delete legacyGlobals[k]; delete vars.globals[k]; },
      clearGlobalVariables: function () { for (var k in vars.globals) delete vars.globals[k]; for (var l in legacyGlobals) delete legacyGlobals[l]; },
      setNextRequest: pm.execution.setNextRequest,
      getResponseHeader: function (k) { return isTest ? pm.response.headers.get(k) : undefined; }
    };
    // A test script's postman.getResponseCookie(name): the cookie of that name the request's URL has in
    // the user's jar, else undefined (postman-sandbox's legacy test interface; none in a pre-request).
    if (isTest) G.postman.getResponseCookie = function (n) {
      var list = state.cookies || [];
      for (var i = 0; i < list.length; i++) if (list[i].name === String(n)) return { name: list[i].name, value: list[i].value };
      return undefined;
    };

    var ctl = {
      take: function () { var out = sends; sends = []; return JSON.stringify(out); },
      deliver: function (id, json) { var w = waiting[id]; delete waiting[id]; if (w) w(JSON.parse(json)); },
      timerDue: function () { return timers.length ? Math.min.apply(null, timers.map(function (t) { return t.due; })) : -1; },
      runTimers: function () {
        var now = Date.now(), due = timers.filter(function (t) { return t.due <= now; });
        timers = timers.filter(function (t) { return t.due > now; });
        due.sort(function (a, b) { return a.due - b.due; }).forEach(function (t) { if (typeof t.fn === 'function') t.fn.apply(null, t.args); });
      },
      finish: function () {
        Object.keys(legacyTests).forEach(function (name) {
          var index = tests.length, v = legacyTests[name];
          tests.push(name);
          record(gen, index, name, !!v, v ? undefined : 'expected ' + fmt(v) + ' to be truthy');
        });
      },
      result: function () {
        var out = { variables: {}, request: { name: state.request.name, method: req.method, url: String(req.url), headers: req.headers.all() } };
        if (req.body !== undefined) out.request.body = str(req.body.raw);
        ['globals', 'collection', 'environment', 'data', 'local'].forEach(function (s) { var o = {}; for (var k in vars[s]) o[k] = str(vars[s][k]); out.variables[s] = o; });
        if (nextRequestSet) out.nextRequest = nextRequest;
        return JSON.stringify(out);
      }
    };
    return ctl;
  }

  // ---- the global object as the prelude leaves it, put back after each script of a warm VM. The
  // functions it uses are taken now, so a script that replaces Reflect's or Object's cannot stop it;
  // false means it could not (a property made non-configurable, the object frozen): the host then
  // disposes of the VM. Built-in prototypes a script changes are not put back
  // (docs/adr/0028-postman-sandbox.md §1 "One warm VM per virtual user").
  var ownKeys = Reflect.ownKeys, getDesc = Reflect.getOwnPropertyDescriptor, define = Reflect.defineProperty;
  var remove = Reflect.deleteProperty, getProto = Reflect.getPrototypeOf, setProto = Reflect.setPrototypeOf;
  var extensible = Reflect.isExtensible, same = Object.is;
  var baseProto = getProto(G), baseKeys = ownKeys(G), baseDescs = [], baseIndex = Object.create(null);
  // Descriptors without a prototype: reading get/set on them never reaches a changed Object.prototype.
  function bare(d) { setProto(d, null); return d; }
  for (var b = 0; b < baseKeys.length; b++) { baseDescs[b] = bare(getDesc(G, baseKeys[b])); baseIndex[baseKeys[b]] = b; }
  function sameDesc(a, d) {
    return same(a.value, d.value) && a.get === d.get && a.set === d.set && a.writable === d.writable &&
      a.enumerable === d.enumerable && a.configurable === d.configurable;
  }
  function reset() {
    if (getProto(G) !== baseProto || !extensible(G)) return false;
    var keys = ownKeys(G), i, d;
    for (i = 0; i < keys.length; i++) if (!(keys[i] in baseIndex) && !remove(G, keys[i])) return false;
    for (i = 0; i < baseKeys.length; i++) {
      d = getDesc(G, baseKeys[i]);
      if ((d === undefined || !sameDesc(bare(d), baseDescs[i])) && !define(G, baseKeys[i], baseDescs[i])) return false;
    }
    return true;
  }

  return { setup: setup, reset: reset };
})();
`;
