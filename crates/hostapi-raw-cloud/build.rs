fn main() {
    hostapi_codegen::build_script("cloud-v2.yaml");
}
