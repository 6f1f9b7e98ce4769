//! Generates this crate's client from `spec/infra-v1.yaml` into `$OUT_DIR/generated.rs`.

fn main() {
    hostapi_codegen::build_script("infra-v1.yaml");
}
