#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../src/engine.rs"]
mod engine;

fuzz_target!(|data: &[u8]| {
    engine::records(data);
});
