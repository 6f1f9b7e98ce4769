//! Generates this crate's client from `spec/cdn.yaml` into `$OUT_DIR/generated.rs`.

fn main() {
    hostapi_codegen::build_script("cdn.yaml");
}
