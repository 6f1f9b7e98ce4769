//! Generates this crate's client from `spec/cloud-v2.yaml` into `$OUT_DIR/generated.rs`.

fn main() {
    hostapi_codegen::build_script("cloud-v2.yaml");
}
