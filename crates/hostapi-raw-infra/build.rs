fn main() {
    hostapi_codegen::build_script("infra-v1.yaml");
}
