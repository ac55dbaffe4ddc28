//! The UI's languages: every word of the pages is a message of a Fluent
//! catalog, `assets/i18n/<lang>.ftl` (English, `en`, is the reference;
//! docs/server.md, "Languages").
//!
//! The catalogs are parsed once (the first page, or [`check`] when the
//! router is built): a catalog that does not parse, or that lacks a key of
//! English's or has one English lacks, stops the server at its start, and
//! the unit tests below catch it before.
//!
//! A page is translated on the server before it is sent ([`localize`], a
//! middleware on every `text/html` answer): `{{key}}` in the HTML is the
//! message, `<html lang>` is the language, and the messages the scripts
//! ask for (`t('key')`) go into the page as a JSON data block (`<script
//! type="application/json" id="i18n">`, data that the CSP lets be: it is
//! never executed) that assets/i18n.js reads (with [`LANGS`], for the
//! header's switcher). The first paint is in the reader's language; nothing
//! is fetched for it.
//!
//! The JSON form of a message: a string with `{$var}` where a variable
//! goes, or, for a message with a selector (plurals), an array of such
//! strings and `{"var", "cases": {key: message}, "default"}` objects that
//! i18n.js resolves with `Intl.PluralRules`.

use crate::web::Assets;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use fluent_syntax::ast::{self, Expression, InlineExpression, PatternElement, VariantKey};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

/// The languages, each with its name in its own words (the switcher's).
/// English first: the reference and the fallback.
pub const LANGS: [(&str, &str); 4] = [("en", "English"), ("de", "Deutsch"), ("fr", "Français"), ("es", "Español")];

/// The cookie the switcher sets (assets/common.js): the language chosen.
pub const COOKIE: &str = "chimera_lang";

/// The keys a script's text asks for: each `t('key'` or `t("key"` (`t(`
/// itself, not the end of another name such as `alert(`). The tests read
/// the assets with it too: a key must be written out, not built.
fn script_keys(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for (open, close) in [("t('", '\''), ("t(\"", '"')] {
        let mut from = 0;
        while let Some(i) = text[from..].find(open) {
            let at = from + i;
            from = at + open.len();
            if text[..at].chars().last().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '$') {
                continue;
            }
            let Some(j) = text[from..].find(close) else { break };
            out.push(&text[from..from + j]);
        }
    }
    out
}

/// One message: its JSON form, its plain text where it has no selector
/// (what an HTML placeholder takes), the variables it uses.
struct Msg {
    json: Value,
    text: Option<String>,
    vars: BTreeSet<String>,
}

/// One language's messages and its data block for the pages.
struct Catalog {
    lang: &'static str,
    messages: BTreeMap<String, Msg>,
    block: String,
}

static ALL: LazyLock<Vec<Catalog>> = LazyLock::new(|| load().unwrap_or_else(|e| panic!("the UI's catalogs: {e}")));

/// Parses the catalogs now (the router calls it: a broken catalog stops
/// the server at its start, not at a reader's first page).
pub fn check() {
    LazyLock::force(&ALL);
}

fn catalog(lang: &str) -> &'static Catalog {
    ALL.iter().find(|c| c.lang == lang).unwrap_or(&ALL[0])
}

fn source(lang: &str) -> Result<String, String> {
    let f = Assets::get(&format!("i18n/{lang}.ftl")).ok_or_else(|| format!("assets/i18n/{lang}.ftl is missing"))?;
    String::from_utf8(f.data.into_owned()).map_err(|_| format!("{lang}.ftl is not UTF-8"))
}

fn load() -> Result<Vec<Catalog>, String> {
    let sources = LANGS.iter().map(|(l, _)| Ok((*l, source(l)?))).collect::<Result<Vec<_>, String>>()?;
    // The scripts' keys: only those messages go into a page's data block
    // (a message only the HTML uses is in the page already).
    let mut used = BTreeSet::new();
    for f in Assets::iter().filter(|f| f.ends_with(".js")) {
        if let Some(file) = Assets::get(&f) {
            used.extend(script_keys(&String::from_utf8_lossy(&file.data)).into_iter().map(str::to_string));
        }
    }
    build(&sources, Some(&used))
}

/// The catalogs from their texts, English first: each checked against it.
/// The data block holds the messages in `scripts` (all when None).
fn build(sources: &[(&'static str, String)], scripts: Option<&BTreeSet<String>>) -> Result<Vec<Catalog>, String> {
    let mut out: Vec<Catalog> = Vec::new();
    for (lang, text) in sources {
        let lang = *lang;
        let messages = parse(lang, text)?;
        if let Some(en) = out.first() {
            let missing: Vec<&String> = en.messages.keys().filter(|k| !messages.contains_key(*k)).collect();
            if !missing.is_empty() {
                return Err(format!("{lang}.ftl lacks {missing:?}"));
            }
            let extra: Vec<&String> = messages.keys().filter(|k| !en.messages.contains_key(*k)).collect();
            if !extra.is_empty() {
                return Err(format!("{lang}.ftl has keys en.ftl lacks: {extra:?}"));
            }
            for (k, m) in &messages {
                let unknown: Vec<&String> = m.vars.difference(&en.messages[k].vars).collect();
                if !unknown.is_empty() {
                    return Err(format!("{lang}.ftl: {k} uses {unknown:?}, which en.ftl's {k} does not have"));
                }
            }
        }
        let data: Map<String, Value> = messages
            .iter()
            .filter(|(k, _)| scripts.is_none_or(|s| s.contains(*k)))
            .map(|(k, m)| (k.clone(), m.json.clone()))
            .collect();
        // `<` as \u003c: the block cannot close its <script> element early.
        let json = serde_json::to_string(&json!({ "lang": lang, "langs": LANGS, "messages": data }))
            .map_err(|e| e.to_string())?
            .replace('<', "\\u003c");
        let block = format!("<script type=\"application/json\" id=\"i18n\">{json}</script>\n");
        out.push(Catalog { lang, messages, block });
    }
    Ok(out)
}

/// A catalog's messages, each compiled; a parse error, an unsupported
/// expression, an attribute or a term is an error naming it.
fn parse(lang: &str, text: &str) -> Result<BTreeMap<String, Msg>, String> {
    let res = fluent_syntax::parser::parse(text)
        .map_err(|(_, errs)| format!("{lang}.ftl does not parse: {:?}", errs.first().map(|e| (&e.kind, &e.pos))))?;
    let mut out = BTreeMap::new();
    for entry in res.body {
        match entry {
            ast::Entry::Message(m) => {
                let key = m.id.name.to_string();
                let value = m.value.as_ref().ok_or_else(|| format!("{lang}.ftl: {key} has no value"))?;
                if !m.attributes.is_empty() {
                    return Err(format!("{lang}.ftl: {key} has attributes (not used here)"));
                }
                let mut vars = BTreeSet::new();
                let json = pattern(value, &mut vars).map_err(|e| format!("{lang}.ftl: {key}: {e}"))?;
                let text = json.as_str().map(str::to_string);
                if out.insert(key.clone(), Msg { json, text, vars }).is_some() {
                    return Err(format!("{lang}.ftl: {key} is there twice"));
                }
            }
            ast::Entry::Term(t) => return Err(format!("{lang}.ftl: term -{} (terms are not used here)", t.id.name)),
            ast::Entry::Junk { content } => return Err(format!("{lang}.ftl does not parse at: {content}")),
            _ => {}
        }
    }
    Ok(out)
}

/// A pattern in its JSON form (see the module's words).
fn pattern(p: &ast::Pattern<&str>, vars: &mut BTreeSet<String>) -> Result<Value, String> {
    let mut parts: Vec<Value> = Vec::new();
    let mut text = String::new();
    for e in &p.elements {
        match e {
            PatternElement::TextElement { value } => text.push_str(value),
            PatternElement::Placeable { expression } => match expression {
                Expression::Inline(i) => inline(i, &mut text, vars)?,
                Expression::Select { selector, variants } => {
                    let InlineExpression::VariableReference { id } = selector else {
                        return Err("a selector on something other than a variable".into());
                    };
                    vars.insert(id.name.to_string());
                    let mut cases = Map::new();
                    let mut default = None;
                    for v in variants {
                        let key = match &v.key {
                            VariantKey::Identifier { name } => name.to_string(),
                            VariantKey::NumberLiteral { value } => value.to_string(),
                        };
                        if v.default {
                            default = Some(key.clone());
                        }
                        cases.insert(key, pattern(&v.value, vars)?);
                    }
                    if !text.is_empty() {
                        parts.push(Value::String(std::mem::take(&mut text)));
                    }
                    parts.push(json!({ "var": id.name, "cases": cases, "default": default }));
                }
            },
        }
    }
    if parts.is_empty() {
        return Ok(Value::String(text));
    }
    if !text.is_empty() {
        parts.push(Value::String(text));
    }
    Ok(Value::Array(parts))
}

fn inline(i: &InlineExpression<&str>, text: &mut String, vars: &mut BTreeSet<String>) -> Result<(), String> {
    match i {
        InlineExpression::VariableReference { id } => {
            vars.insert(id.name.to_string());
            text.push_str(&format!("{{${}}}", id.name));
        }
        InlineExpression::StringLiteral { value } => text.push_str(&value.replace("\\\"", "\"").replace("\\\\", "\\")),
        InlineExpression::NumberLiteral { value } => text.push_str(value),
        InlineExpression::Placeable { expression } => match &**expression {
            Expression::Inline(i) => inline(i, text, vars)?,
            Expression::Select { .. } => return Err("a selector inside a placeable".into()),
        },
        _ => return Err(format!("an expression this site does not take: {i:?}")),
    }
    Ok(())
}

/// The language an `Accept-Language` value asks for: the supported one
/// with the highest q (region subtags taken as their language: `de-CH` is
/// `de`), English when none is supported.
pub fn from_accept_language(value: &str) -> &'static str {
    let mut best: Option<(f32, &'static str)> = None;
    for item in value.split(',') {
        let mut it = item.split(';');
        let tag = it.next().unwrap_or("").trim();
        let mut q = 1.0f32;
        for p in it {
            if let Some(v) = p.trim().strip_prefix("q=").or_else(|| p.trim().strip_prefix("Q=")) {
                q = v.trim().parse().unwrap_or(0.0);
            }
        }
        if q <= 0.0 || !q.is_finite() {
            continue;
        }
        let primary = tag.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
        let Some(&(lang, _)) = LANGS.iter().find(|(l, _)| *l == primary) else { continue };
        // Ties go to the one named first.
        if best.is_none_or(|(bq, _)| q > bq) {
            best = Some((q, lang));
        }
    }
    best.map_or("en", |(_, l)| l)
}

/// The language of a request: the switcher's cookie, else what the
/// browser asks for (`Accept-Language`), else English.
pub fn pick(headers: &HeaderMap) -> &'static str {
    for v in headers.get_all(header::COOKIE) {
        let Ok(v) = v.to_str() else { continue };
        for c in v.split(';') {
            if let Some((k, val)) = c.trim().split_once('=') {
                if k == COOKIE {
                    if let Some(&(l, _)) = LANGS.iter().find(|(l, _)| *l == val.trim()) {
                        return l;
                    }
                }
            }
        }
    }
    headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).map_or("en", from_accept_language)
}

/// A message's plain text in `lang` (None for an unknown key, or one with
/// a selector: those are for the scripts).
pub fn text(lang: &str, key: &str) -> Option<&'static str> {
    catalog(lang).messages.get(key).and_then(|m| m.text.as_deref())
}

/// A page in `lang`: `<html lang>`, each `{{key}}` its message (the
/// catalogs are the site's own: a message may hold markup, and holds no
/// ASCII double quote, so it may stand in an attribute), and the data block
/// for the scripts before `</head>`. A `{{...}}` that is no key stays.
pub fn localize(html: &str, lang: &str) -> String {
    let cat = catalog(lang);
    let mut out = String::with_capacity(html.len() + cat.block.len() + 64);
    let mut rest = html;
    while let Some(i) = rest.find("{{") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        match after.find("}}") {
            Some(j) if is_key(&after[..j]) && cat.messages.contains_key(&after[..j]) => {
                out.push_str(text(lang, &after[..j]).unwrap_or(&after[..j]));
                rest = &after[j + 2..];
            }
            _ => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    let out = out.replacen("<html lang=\"en\"", &format!("<html lang=\"{}\"", cat.lang), 1);
    match out.find("</head>") {
        Some(i) => format!("{}{}{}", &out[..i], cat.block, &out[i..]),
        None => out,
    }
}

fn is_key(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// The catalog key of a variant's summary (`summary-genie-ownhalf`): the
/// server fills `/api/meta` with it, so no page keeps a list of variants.
pub fn summary_key(variant_id: &str) -> String {
    format!("summary-{variant_id}")
}

/// The catalog key of a rule option's label (`option-ring-powers`) or help
/// (`option-ring-powers-help`).
pub fn option_key(option: &str, help: bool) -> String {
    format!("option-{}{}", option.replace('_', "-"), if help { "-help" } else { "" })
}

/// The middleware: every page (`text/html`) in the request's language,
/// marked as varying by `Accept-Language` and `Cookie`.
pub async fn middleware(req: Request, next: Next) -> Response {
    let lang = pick(req.headers());
    let res = next.run(req).await;
    let html = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if !html {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let bytes = match axum::body::to_bytes(body, 64 << 20).await {
        Ok(b) => b,
        Err(_) => return Response::from_parts(parts, Body::empty()),
    };
    let body = match std::str::from_utf8(&bytes) {
        Ok(s) => Body::from(localize(s, lang)),
        Err(_) => Body::from(bytes),
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.append(header::VARY, HeaderValue::from_static("Accept-Language, Cookie"));
    Response::from_parts(parts, body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn assets() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
    }

    #[test]
    fn every_catalog_parses_and_has_every_key_of_english() {
        // load() checks both ways and the variables: its error names the key.
        if let Err(e) = load() {
            panic!("{e}");
        }
        let en = &ALL[0].messages;
        assert!(en.len() > 100, "en.ftl has {} messages", en.len());
        for c in ALL.iter() {
            assert_eq!(c.messages.len(), en.len(), "{}", c.lang);
        }
    }

    #[test]
    fn a_missing_key_or_an_unknown_variable_is_refused() {
        let en = "a = A\nb = { $n ->\n    [one] one\n   *[other] { $n } of { $m }\n}\n".to_string();
        let parsed = parse("en", &en).unwrap();
        assert_eq!(parsed["b"].vars.iter().collect::<Vec<_>>(), ["m", "n"]);
        assert_eq!(
            parsed["b"].json,
            json!([{"var": "n", "cases": {"one": "one", "other": "{$n} of {$m}"}, "default": "other"}])
        );
        let two = |de: &str| build(&[("en", en.clone()), ("de", de.to_string())], None).err().unwrap_or_default();
        assert!(two("a = A\n").contains("lacks [\"b\"]"), "{}", two("a = A\n"));
        assert!(two("a = A\nb = B\nc = C\n").contains("has keys en.ftl lacks: [\"c\"]"));
        assert!(two("a = A { $x }\nb = B\n").contains("a uses [\"x\"]"));
        assert_eq!(two("a = A\nb = { $n } { $m }\n"), "");
        assert!(parse("xx", "a = {").is_err(), "a parse error is an error");
        assert!(parse("xx", "-t = T\n").is_err(), "terms are refused");
        assert!(parse("xx", "a = A\na = B\n").is_err(), "a key twice is refused");
    }

    #[test]
    fn only_markup_holds_an_ascii_double_quote() {
        // Plain text may go into an attribute: its quotes are “ ” or « ».
        for c in ALL.iter() {
            for (k, m) in &c.messages {
                let s = m.json.to_string();
                assert!(!s.contains("\\\"") || s.contains('<'), "{}.ftl: {k} has a \" (use “ ” or « »)", c.lang);
            }
        }
    }

    /// Every `t('key'...)` of the scripts and `{{key}}` of the pages.
    fn used_keys() -> BTreeMap<String, String> {
        let mut used = BTreeMap::new();
        let files = std::fs::read_dir(assets())
            .unwrap()
            .chain(std::fs::read_dir(assets().join("board")).unwrap())
            .map(|e| e.unwrap().path());
        for p in files {
            let name = p.strip_prefix(assets()).unwrap().display().to_string();
            let ext = p.extension().map(|e| e.to_string_lossy().to_string()).unwrap_or_default();
            if ext != "js" && ext != "html" {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let keys = if ext == "html" {
                text.split("{{").skip(1).filter_map(|r| r.split_once("}}").map(|(k, _)| k)).collect()
            } else {
                script_keys(&text)
            };
            for key in keys {
                assert!(is_key(key), "{name}: “{key}” is not a key");
                used.insert(key.to_string(), name.clone());
            }
        }
        // The variants' words that /api/meta gives (web.rs `meta`): every
        // variant's summary and every rule option's label and help.
        for v in chimera_rules::Variant::ALL {
            let i = v.info();
            used.insert(summary_key(i.id), "/api/meta".into());
            for o in i.options {
                used.insert(option_key(o.key, false), "/api/meta".into());
                used.insert(option_key(o.key, true), "/api/meta".into());
            }
        }
        used
    }

    #[test]
    fn every_key_the_pages_use_is_in_english_and_every_english_key_is_used() {
        let en = &ALL[0].messages;
        let used = used_keys();
        let missing: Vec<String> =
            used.iter().filter(|(k, _)| !en.contains_key(*k)).map(|(k, f)| format!("{f}: {k}")).collect();
        assert!(missing.is_empty(), "keys the assets use that en.ftl lacks: {missing:?}");
        let dead: Vec<&String> = en.keys().filter(|k| !used.contains_key(*k)).collect();
        assert!(dead.is_empty(), "en.ftl keys no asset uses: {dead:?}");
    }

    #[test]
    fn html_placeholders_are_plain_messages() {
        for e in std::fs::read_dir(assets()).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_none_or(|e| e != "html") {
                continue;
            }
            let html = std::fs::read_to_string(&p).unwrap();
            for (lang, _) in LANGS {
                let out = localize(&html, lang);
                assert!(
                    !out.contains("{{"),
                    "{}: a placeholder left in {lang}: {}",
                    p.display(),
                    &out[out.find("{{").unwrap()..][..40.min(out.len() - out.find("{{").unwrap())]
                );
                assert!(out.contains(&format!("<html lang=\"{lang}\"")), "{}", p.display());
                assert!(out.contains("id=\"i18n\""), "{}", p.display());
            }
            // A placeholder in an attribute takes plain text.
            for (i, _) in html.match_indices("=\"{{") {
                let key = &html[i + 4..i + 4 + html[i + 4..].find("}}").unwrap()];
                for (lang, _) in LANGS {
                    let m = text(lang, key).unwrap_or_default();
                    assert!(!m.contains('"') && !m.contains('<'), "{}: {lang} {key} in an attribute", p.display());
                }
            }
        }
    }

    /// What the catalogs cost a page: the data block's size in each
    /// language (every page carries it), with a ceiling against creep, and
    /// the time `localize` takes on the lobby (printed; `--nocapture`).
    #[test]
    fn the_data_block_stays_small() {
        let lobby = std::fs::read_to_string(assets().join("index.html")).unwrap();
        for c in ALL.iter() {
            assert!(c.block.len() < 32 * 1024, "{}: the data block is {} bytes", c.lang, c.block.len());
            let t0 = std::time::Instant::now();
            let n = 200;
            for _ in 0..n {
                std::hint::black_box(localize(std::hint::black_box(&lobby), c.lang));
            }
            println!(
                "{}: data block {} bytes, lobby {} -> {} bytes, localize {:.1} µs",
                c.lang,
                c.block.len(),
                lobby.len(),
                localize(&lobby, c.lang).len(),
                t0.elapsed().as_secs_f64() * 1e6 / n as f64
            );
        }
    }

    #[test]
    fn accept_language_takes_the_best_supported() {
        assert_eq!(from_accept_language("de-CH,de;q=0.9,en;q=0.8"), "de");
        assert_eq!(from_accept_language("fr-CA"), "fr");
        assert_eq!(from_accept_language("es_MX"), "es");
        assert_eq!(from_accept_language("en;q=0.5, fr;q=0.9"), "fr");
        assert_eq!(from_accept_language("ja, it;q=0.9, es;q=0.1"), "es");
        assert_eq!(from_accept_language("ja, zh-CN"), "en");
        assert_eq!(from_accept_language("de;q=0, fr;q=0.3"), "fr");
        assert_eq!(from_accept_language("*"), "en");
        assert_eq!(from_accept_language(""), "en");
        assert_eq!(from_accept_language("DE-de"), "de");
        assert_eq!(from_accept_language("fr;q=0.5, de;q=0.5"), "fr", "a tie goes to the first");
        assert_eq!(from_accept_language("de;q=nonsense, es"), "es");
    }

    #[test]
    fn the_cookie_wins_over_accept_language() {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static("de-DE,de;q=0.9"));
        assert_eq!(pick(&h), "de");
        h.insert(header::COOKIE, HeaderValue::from_static("a=b; chimera_lang=es; c=d"));
        assert_eq!(pick(&h), "es");
        h.insert(header::COOKIE, HeaderValue::from_static("chimera_lang=xx"));
        assert_eq!(pick(&h), "de", "an unknown cookie value is no choice");
        assert_eq!(pick(&HeaderMap::new()), "en");
    }

    #[test]
    fn localize_fills_placeholders_and_the_lang() {
        let page = "<!doctype html><html lang=\"en\"><head><title>{{nogame-title}}</title></head><body>{{not a key}} {{}}</body></html>";
        let de = localize(page, "de");
        assert!(de.starts_with("<!doctype html><html lang=\"de\"><head><title>"), "{de}");
        assert!(de.contains(text("de", "nogame-title").unwrap()));
        assert!(de.contains("{{not a key}} {{}}"));
        assert!(de.contains("<script type=\"application/json\" id=\"i18n\">{\"lang\":\"de\""));
        assert!(de.contains(
            "\"langs\":[[\"en\",\"English\"],[\"de\",\"Deutsch\"],[\"fr\",\"Français\"],[\"es\",\"Español\"]]"
        ));
        assert!(!catalog("de").block[10..catalog("de").block.len() - 10].contains('<'));
        // The scripts' messages are in the block, one only the HTML uses is not.
        assert!(catalog("de").block.contains("\"lobby-play-stranger\":"));
        assert!(catalog("de").block.contains("\"chooser-title\":"), "assets/board/ is read too");
        assert!(!catalog("de").block.contains("\"lobby-seeks-about\":"));
    }
}
