//! Web Push end to end, with no outside network: a tiny HTTP server in the
//! test plays the push service on 127.0.0.1 (the server's allowlist names
//! it). A challenged account with no page open gets one push; the test
//! decrypts it itself (RFC 8291, its own decryptor below, first checked on
//! the RFC's worked example) and checks the VAPID header (RFC 8292) and the
//! push headers. An account with a page open gets none; a correspondence
//! move is pushed to the player to move; a 410 deletes the subscription;
//! subscriptions elsewhere than the allowlist, bad bodies, another
//! account's unsubscribe and cross-site posts are refused; an account
//! keeps ten subscriptions at most, gives them in its data export and
//! loses them with its deletion. On SQLite, and on PostgreSQL with the
//! challenger and the challenged player on two instances.

use crate::common;

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use axum::http::HeaderMap;
use base64ct::{Base64UrlUnpadded, Encoding};
use chimera_server::store::Location;
use chimera_server::{Config, Server};
use common::pg::PgCluster;
use common::*;
use futures_util::{SinkExt, StreamExt};
use hkdf::Hkdf;
use p256::ecdsa::signature::Verifier;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use serde_json::{json, Value};
use sha2::Sha256;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

fn b64(s: &str) -> Vec<u8> {
    Base64UrlUnpadded::decode_vec(s).expect("base64url")
}

fn hkdf(salt: &[u8], ikm: &[u8], info: &[u8], n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n];
    Hkdf::<Sha256>::new(Some(salt), ikm).expand(info, &mut out).expect("a short output");
    out
}

/// An RFC 8291 decryptor (aes128gcm content coding of RFC 8188 with the
/// Web Push key derivation), written from the RFCs for this test: the
/// header (salt 16, record size 4, key id length 1, the application
/// server's public key as key id), then records of `rs` bytes, each
/// AES-128-GCM with the nonce XOR its sequence number, padding ended by a
/// 0x02 delimiter in the last record (0x01 before).
fn decrypt(message: &[u8], ua_secret: &p256::SecretKey, auth: &[u8]) -> Result<Vec<u8>, String> {
    if message.len() < 21 {
        return Err("shorter than the header".into());
    }
    let salt = &message[..16];
    let rs = u32::from_be_bytes(message[16..20].try_into().unwrap()) as usize;
    let idlen = message[20] as usize;
    if rs < 18 || message.len() < 21 + idlen {
        return Err(format!("record size {rs}, key id length {idlen}"));
    }
    let as_public = p256::PublicKey::from_sec1_bytes(&message[21..21 + idlen]).map_err(|e| format!("key id: {e}"))?;
    let ecdh = p256::ecdh::diffie_hellman(ua_secret.to_nonzero_scalar(), as_public.as_affine());
    // RFC 8291 3.4: IKM = HKDF(auth, ecdh, "WebPush: info" 0x00 ua_public as_public, 32).
    let mut info = b"WebPush: info\0".to_vec();
    info.extend_from_slice(ua_secret.public_key().to_encoded_point(false).as_bytes());
    info.extend_from_slice(as_public.to_encoded_point(false).as_bytes());
    let ikm = hkdf(auth, ecdh.raw_secret_bytes(), &info, 32);
    // RFC 8188 2.2, 2.3: the key and the nonce from the salt.
    let cek = hkdf(salt, &ikm, b"Content-Encoding: aes128gcm\0", 16);
    let nonce = hkdf(salt, &ikm, b"Content-Encoding: nonce\0", 12);
    let cipher = Aes128Gcm::new_from_slice(&cek).unwrap();
    let records: Vec<&[u8]> = message[21 + idlen..].chunks(rs).collect();
    let mut out = Vec::new();
    for (seq, rec) in records.iter().enumerate() {
        let mut n = nonce.clone();
        for (i, b) in (seq as u64).to_be_bytes().iter().enumerate() {
            n[4 + i] ^= b;
        }
        let mut plain = cipher.decrypt(Nonce::from_slice(&n), *rec).map_err(|_| format!("record {seq}: bad tag"))?;
        let last = seq + 1 == records.len();
        let end = plain.iter().rposition(|&b| b != 0).ok_or("a record of padding only")?;
        if plain[end] != if last { 2 } else { 1 } {
            return Err(format!("record {seq}: delimiter {}", plain[end]));
        }
        plain.truncate(end);
        out.extend_from_slice(&plain);
    }
    Ok(out)
}

#[test]
fn the_decryptor_opens_the_rfc_8291_example() {
    // RFC 8291, section 5 (and appendix A): the user agent's keys, the
    // authentication secret and the encrypted message.
    let ua_private = p256::SecretKey::from_slice(&b64("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94")).unwrap();
    assert_eq!(
        ua_private.public_key().to_encoded_point(false).as_bytes(),
        b64("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4").as_slice()
    );
    let auth = b64("BTBZMqHH6r4Tts7J_aSIgg");
    let message = b64(
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN",
    );
    assert_eq!(decrypt(&message, &ua_private, &auth).unwrap(), b"When I grow up, I want to be a watermelon");
    // Wrong secrets do not open it.
    let mut other = auth.clone();
    other[0] ^= 1;
    assert!(decrypt(&message, &ua_private, &other).is_err());
    let mut tampered = message.clone();
    *tampered.last_mut().unwrap() ^= 1;
    assert!(decrypt(&tampered, &ua_private, &auth).is_err());
}

/// One request the push service received.
struct Got {
    path: String,
    headers: HeaderMap,
    body: Vec<u8>,
}

/// The push service: answers every POST with `status` and hands it over.
struct PushService {
    addr: SocketAddr,
    status: Arc<AtomicU16>,
    rx: mpsc::UnboundedReceiver<Got>,
}

impl PushService {
    async fn start() -> PushService {
        let (tx, rx) = mpsc::unbounded_channel();
        let status = Arc::new(AtomicU16::new(201));
        let st = status.clone();
        let app = axum::Router::new().route(
            "/{*path}",
            axum::routing::post(move |uri: axum::http::Uri, headers: HeaderMap, body: axum::body::Bytes| {
                let (tx, st) = (tx.clone(), st.clone());
                async move {
                    let _ = tx.send(Got { path: uri.path().to_string(), headers, body: body.to_vec() });
                    axum::http::StatusCode::from_u16(st.load(Ordering::SeqCst)).unwrap()
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        PushService { addr, status, rx }
    }

    fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The next push (10 s at most).
    async fn next(&mut self) -> Got {
        tokio::time::timeout(Duration::from_secs(10), self.rx.recv())
            .await
            .expect("a push in time")
            .expect("the service runs")
    }

    /// No push within `ms`.
    async fn none(&mut self, ms: u64) {
        if let Ok(Some(g)) = tokio::time::timeout(Duration::from_millis(ms), self.rx.recv()).await {
            panic!("an unexpected push to {}", g.path);
        }
    }
}

/// A browser's subscription: its key pair and auth secret, made here.
struct Device {
    secret: p256::SecretKey,
    auth: [u8; 16],
    endpoint: String,
}

impl Device {
    fn new(service: &PushService, name: &str) -> Device {
        let mut auth = [0u8; 16];
        rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut auth);
        Device {
            secret: p256::SecretKey::random(&mut rand::rngs::OsRng),
            auth,
            endpoint: format!("{}/push/{name}", service.origin()),
        }
    }

    /// `PushSubscription.toJSON()`.
    fn json(&self) -> Value {
        json!({
            "endpoint": self.endpoint, "expirationTime": null,
            "keys": {
                "p256dh": Base64UrlUnpadded::encode_string(self.secret.public_key().to_encoded_point(false).as_bytes()),
                "auth": Base64UrlUnpadded::encode_string(&self.auth),
            }
        })
    }
}

fn header<'a>(g: &'a Got, name: &str) -> &'a str {
    g.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
}

fn now_s() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

/// RFC 8292: `Authorization: vapid t=JWT, k=KEY`; the JWT is ES256, signed
/// by `k`, for the push service's origin, expiring within 24 hours, with a
/// contact. Returns `k`.
fn check_vapid(g: &Got, origin: &str) -> String {
    let auth = header(g, "authorization");
    let rest = auth.strip_prefix("vapid ").unwrap_or_else(|| panic!("a vapid Authorization: {auth}"));
    let mut t = "";
    let mut k = "";
    for part in rest.split(',') {
        let part = part.trim();
        if let Some(v) = part.strip_prefix("t=") {
            t = v;
        } else if let Some(v) = part.strip_prefix("k=") {
            k = v;
        }
    }
    let pieces: Vec<&str> = t.split('.').collect();
    assert_eq!(pieces.len(), 3, "a JWS compact token: {t}");
    let head: Value = serde_json::from_slice(&b64(pieces[0])).unwrap();
    assert_eq!(head["alg"], "ES256", "{head}");
    let key = p256::ecdsa::VerifyingKey::from_sec1_bytes(&b64(k)).expect("k is a P-256 point");
    let sig = p256::ecdsa::Signature::from_slice(&b64(pieces[2])).expect("a 64-byte signature");
    key.verify(format!("{}.{}", pieces[0], pieces[1]).as_bytes(), &sig).expect("the JWT's signature verifies with k");
    let claims: Value = serde_json::from_slice(&b64(pieces[1])).unwrap();
    assert_eq!(claims["aud"], json!(origin), "{claims}");
    let exp = claims["exp"].as_i64().expect("exp");
    assert!(exp > now_s() && exp <= now_s() + 24 * 3600, "exp within 24 h: {claims}");
    let sub = claims["sub"].as_str().unwrap_or("");
    assert!(sub.starts_with("mailto:") || sub.starts_with("https:"), "sub: {claims}");
    k.to_string()
}

fn config(service: &PushService) -> Config {
    Config {
        signup_burst: 100,
        create_burst: 1000,
        heartbeat_every: Duration::from_millis(200),
        push_services: vec![service.origin()],
        ..Config::default()
    }
}

/// Subscriptions of the account, by endpoint.
async fn endpoints(a: SocketAddr, c: &str) -> Vec<String> {
    let (st, v, _) = call(a, "GET", "/api/push/subscriptions", Some(c), &Value::Null).await;
    assert_eq!(st, 200, "{v}");
    v["subscriptions"].as_array().unwrap().iter().map(|s| s["endpoint"].as_str().unwrap().to_string()).collect()
}

async fn challenge(a: SocketAddr, from: &str, to: &str, body: Value) -> String {
    let (st, c, _) = call(a, "POST", &format!("/api/challenge/{to}"), Some(from), &body).await;
    assert_eq!(st, 200, "{c}");
    c["id"].as_str().unwrap().to_string()
}

async fn cancel(a: SocketAddr, from: &str, id: &str) {
    assert_eq!(call(a, "POST", &format!("/api/challenge/{id}/cancel"), Some(from), &Value::Null).await.0, 200);
}

/// The whole flow, the challenger on `a` and the challenged on `b`.
async fn flow(a: SocketAddr, b: SocketAddr, db: &chimera_server::store::Db, service: &mut PushService) {
    let ann = account(a, "Ann").await;
    let bob = account(b, "Bob").await;

    // The key, to anyone; the same on every instance of one store.
    let (st, k) = get_json(a, "/api/push/key").await;
    assert_eq!((st, k["services"].as_bool()), (200, Some(true)), "{k}");
    let server_key = k["key"].as_str().unwrap().to_string();
    assert_eq!(b64(&server_key).len(), 65, "an uncompressed P-256 point");
    assert_eq!(get_json(b, "/api/push/key").await.1["key"], json!(server_key));

    // Bob subscribes one device, and has no page open.
    let phone = Device::new(service, "bob-phone");
    let (st, v, _) = call(b, "POST", "/api/push/subscribe", Some(&bob), &phone.json()).await;
    assert_eq!((st, v["subscriptions"].as_i64()), (200, Some(1)), "{v}");
    assert_eq!(endpoints(b, &bob).await, std::slice::from_ref(&phone.endpoint));

    // A challenge: one push, which the test opens and checks.
    let ok = json!({"variant": "chess", "clock": {"minutes": 5, "increment": 3}, "rated": true, "color": "white"});
    let c1 = challenge(a, &ann, "bob", ok.clone()).await;
    let got = service.next().await;
    assert_eq!(got.path, "/push/bob-phone");
    assert_eq!(header(&got, "content-encoding"), "aes128gcm");
    let ttl: i64 = header(&got, "ttl").parse().expect("a TTL in seconds");
    assert!(ttl > 6 * 24 * 3600 && ttl <= 7 * 24 * 3600, "the challenge's week: {ttl}");
    assert_eq!(header(&got, "urgency"), "high", "a clock challenge");
    assert_eq!(header(&got, "topic"), format!("c-{c1}"));
    assert_eq!(check_vapid(&got, &service.origin()), server_key, "signed with the key pages subscribe with");
    let plain = decrypt(&got.body, &phone.secret, &phone.auth).expect("the push opens");
    let msg: Value = serde_json::from_slice(&plain).unwrap();
    assert_eq!(msg["body"], "Ann challenges you: Chess 5+3 rated", "{msg}");
    assert_eq!(
        (msg["url"].as_str(), msg["tag"].as_str()),
        (Some("/#notifications"), Some(&*format!("challenge-{c1}")))
    );
    assert!(msg["title"].as_str().is_some_and(|t| t.contains("Ann")), "{msg}");
    service.none(300).await;
    cancel(a, &ann, &c1).await;
    service.none(300).await;

    // With a page open (a notification socket), no push; closed, one again.
    let mut req = format!("ws://{b}/ws/notify").into_client_request().unwrap();
    req.headers_mut().insert("Cookie", format!("chimera_session={bob}").parse().unwrap());
    let mut page = tokio_tungstenite::connect_async(req).await.unwrap().0;
    recv(&mut page).await;
    let c2 = challenge(a, &ann, "bob", ok.clone()).await;
    let note = recv(&mut page).await;
    assert_eq!(note["item"]["kind"], "challenge", "the page is told: {note}");
    service.none(1500).await;
    cancel(a, &ann, &c2).await;
    page.send(tokio_tungstenite::tungstenite::Message::Close(None)).await.unwrap();
    while let Some(Ok(_)) = page.next().await {}
    tokio::time::sleep(Duration::from_millis(500)).await;
    let c3 = challenge(a, &ann, "bob", json!({"variant": "chess", "days": 2, "color": "white"})).await;
    let got = service.next().await;
    let msg: Value = serde_json::from_slice(&decrypt(&got.body, &phone.secret, &phone.auth).unwrap()).unwrap();
    assert_eq!(msg["body"], "Ann challenges you: Chess 2 days a move casual", "{msg}");
    assert_eq!(header(&got, "urgency"), "normal");

    // The correspondence game: Ann's move is pushed to Bob, whose turn it is.
    let (st, acc, _) = call(b, "POST", &format!("/api/challenge/{c3}/accept"), Some(&bob), &Value::Null).await;
    assert_eq!(st, 200, "{acc}");
    let (_, seat, _) = call(a, "GET", &format!("/api/games/{c3}/seat"), Some(&ann), &Value::Null).await;
    let mut w = ws(a, &c3, seat["token"].as_str()).await;
    send(&mut w, &json!({"t": "move", "uci": "g1f3", "ply": 0})).await;
    let got = service.next().await;
    let msg: Value = serde_json::from_slice(&decrypt(&got.body, &phone.secret, &phone.auth).unwrap()).unwrap();
    assert_eq!(msg["body"], "Ann moved Nf3 in your Chess game", "{msg}");
    assert_eq!(msg["url"], json!(format!("/game/{c3}")));
    assert_eq!(header(&got, "topic"), format!("g-{c3}"));
    let ttl: i64 = header(&got, "ttl").parse().unwrap();
    assert!(ttl > 23 * 3600 && ttl <= 24 * 3600, "a day: {ttl}");
    // Ann, who moved, has no subscription: nothing more.
    service.none(500).await;
    let (_, ex, _) = call(b, "GET", "/api/account/export", Some(&bob), &Value::Null).await;
    let subs = ex["push_subscriptions"].as_array().expect("the export lists them");
    assert_eq!(subs.len(), 1, "{ex}");
    assert_eq!(subs[0]["endpoint"], json!(phone.endpoint));
    assert!(subs[0]["used_at"].as_i64().is_some(), "the push was accepted: {subs:?}");
    assert!(subs[0].get("p256dh").is_none() && subs[0].get("auth").is_none(), "no keys: {subs:?}");

    // Refused subscriptions and bodies.
    let mut evil = phone.json();
    evil["endpoint"] = json!("https://evil.example/push/1");
    let port = service.addr.port();
    let mut other_port = phone.json();
    other_port["endpoint"] = json!(format!("http://127.0.0.1:{}/push/x", port.wrapping_add(1)));
    let mut other_host = phone.json();
    other_host["endpoint"] = json!(format!("http://localhost:{port}/push/x"));
    let mut user_info = phone.json();
    user_info["endpoint"] = json!(format!("http://127.0.0.1:{port}@evil.example/push/x"));
    let mut long = phone.json();
    long["endpoint"] = json!(format!("{}/{}", service.origin(), "x".repeat(1100)));
    let mut short_key = phone.json();
    short_key["keys"]["p256dh"] = json!(Base64UrlUnpadded::encode_string(&[4u8; 33]));
    let mut off_curve = phone.json();
    off_curve["keys"]["p256dh"] = json!(Base64UrlUnpadded::encode_string(&[4u8; 65]));
    let mut short_auth = phone.json();
    short_auth["keys"]["auth"] = json!(Base64UrlUnpadded::encode_string(&[1u8; 15]));
    let mut not_b64 = phone.json();
    not_b64["keys"]["auth"] = json!("not base64!");
    let mut extra = phone.json();
    extra["sneaky"] = json!(1);
    for (body, why) in [
        (evil, "not a push service this server sends to"),
        (other_port, "not a push service"),
        (other_host, "not a push service"),
        (user_info, "no user name"),
        (long, "1024 at most"),
        (short_key, "65"),
        (off_curve, "not a point"),
        (short_auth, "16"),
        (not_b64, "base64url"),
        (json!({"endpoint": phone.endpoint}), "no keys"),
        (extra, "unknown field"),
        (json!([phone.endpoint]), "JSON object"),
        (json!({"endpoint": phone.endpoint, "keys": ["a", "b"]}), "object"),
    ] {
        let (st, v, _) = call(b, "POST", "/api/push/subscribe", Some(&bob), &body).await;
        assert_eq!(st, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap_or("").contains(why), "{body}: {v}");
    }
    assert_eq!(call(b, "POST", "/api/push/subscribe", None, &phone.json()).await.0, 401);
    assert_eq!(call(b, "GET", "/api/push/subscriptions", None, &Value::Null).await.0, 401);
    let (st, v) = http_from(
        b,
        std::net::Ipv4Addr::LOCALHOST,
        "POST",
        "/api/push/subscribe",
        &format!("Content-Type: application/json\r\nOrigin: https://evil.example\r\nCookie: chimera_session={bob}\r\n"),
        &phone.json().to_string(),
    )
    .await;
    assert_eq!(st, 403, "a cross-site subscribe: {v}");
    assert_eq!(endpoints(b, &bob).await, std::slice::from_ref(&phone.endpoint), "nothing refused was kept");

    // Ann can neither read nor remove Bob's subscription.
    assert!(endpoints(a, &ann).await.is_empty());
    let (st, v, _) = call(a, "POST", "/api/push/unsubscribe", Some(&ann), &json!({"endpoint": phone.endpoint})).await;
    assert_eq!((st, v["removed"].as_bool()), (200, Some(false)), "{v}");
    assert_eq!(endpoints(b, &bob).await, std::slice::from_ref(&phone.endpoint));
    assert_eq!(call(a, "POST", "/api/push/unsubscribe", Some(&ann), &json!({"url": "x"})).await.0, 400);

    // A push the service no longer knows (410): the subscription goes.
    service.status.store(410, Ordering::SeqCst);
    let c4 = challenge(a, &ann, "bob", ok.clone()).await;
    assert_eq!(service.next().await.path, "/push/bob-phone");
    let mut gone = false;
    for _ in 0..50 {
        if endpoints(b, &bob).await.is_empty() {
            gone = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(gone, "a 410 deletes the subscription");
    cancel(a, &ann, &c4).await;
    service.status.store(201, Ordering::SeqCst);

    // Ten devices at most: the eleventh drops the oldest. Unsubscribed,
    // one goes; deleted, the account's go.
    let devices: Vec<Device> = (0..11).map(|i| Device::new(service, &format!("bob-{i}"))).collect();
    for d in &devices {
        let (st, v, _) = call(b, "POST", "/api/push/subscribe", Some(&bob), &d.json()).await;
        assert_eq!(st, 200, "{v}");
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    let kept = endpoints(b, &bob).await;
    assert_eq!(kept.len(), 10, "{kept:?}");
    assert!(!kept.contains(&devices[0].endpoint), "the oldest went: {kept:?}");
    let (st, v, _) =
        call(b, "POST", "/api/push/unsubscribe", Some(&bob), &json!({"endpoint": devices[5].endpoint})).await;
    assert_eq!((st, v["removed"].as_bool()), (200, Some(true)), "{v}");
    assert_eq!(endpoints(b, &bob).await.len(), 9);
    let stored = || async {
        use sqlx::Row;
        sqlx::query("SELECT COUNT(*) FROM push_subscriptions").fetch_one(db).await.unwrap().get::<i64, _>(0)
    };
    assert_eq!(stored().await, 9);
    let (st, v, _) = call(b, "POST", "/api/account/delete", Some(&bob), &json!({"password": PW})).await;
    assert_eq!(st, 200, "{v}");
    assert_eq!(stored().await, 0, "Bob's subscriptions went with his account");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_push_is_delivered_and_decrypted() {
    let mut service = PushService::start().await;
    let dir = fresh_dir("webpush");
    let s = Server::start_with("127.0.0.1:0", &dir, config(&service)).await.unwrap();
    flow(s.addr, s.addr, &s.app.db, &mut service).await;
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn web_push_across_two_instances_on_postgres() {
    let Some(pg) = PgCluster::start_or_skip("web push on two instances") else { return };
    let mut service = PushService::start().await;
    let at = Location::Url(pg.fresh_database("webpush"));
    let a = Server::start_at("127.0.0.1:0", &at, config(&service)).await.unwrap();
    let b = Server::start_at("127.0.0.1:0", &at, config(&service)).await.unwrap();
    flow(a.addr, b.addr, &a.app.db, &mut service).await;
    a.stop().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_with_no_push_service_takes_no_subscription() {
    let service = PushService::start().await;
    let dir = fresh_dir("webpush-off");
    let s =
        Server::start_with("127.0.0.1:0", &dir, Config { push_services: vec![], ..config(&service) }).await.unwrap();
    let bob = account(s.addr, "Bob").await;
    let (_, k) = get_json(s.addr, "/api/push/key").await;
    assert_eq!(k["services"], false, "{k}");
    let (st, v, _) = call(s.addr, "POST", "/api/push/subscribe", Some(&bob), &Device::new(&service, "x").json()).await;
    assert_eq!(st, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("no Web Push"), "{v}");
    s.stop().await;
}
