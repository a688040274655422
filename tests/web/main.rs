//! Tests of the wasm-bindgen API (`src/web/`), compiled to wasm32 and run in Node by
//! wasm-bindgen-test-runner: `cargo test --target wasm32-unknown-unknown --features webgpu --test
//! web` with the runner set (scripts/test.sh does this; the learning bundle's tests need its
//! features). Natively this target is empty. One file a puzzle family.
#![cfg(target_arch = "wasm32")]

#[cfg(feature = "learn")]
mod game2048;
mod minesweeper;
mod samegame;
mod sliding;
mod sudoku;

use wasm_bindgen::{JsCast, JsValue};

pub(crate) fn message(error: JsValue) -> String {
    error
        .dyn_into::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .unwrap_or_default()
}

pub(crate) fn field(object: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(object, &JsValue::from_str(name)).unwrap()
}
