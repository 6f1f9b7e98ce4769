fn main() {
    hostapi_codegen::build_script("cdn.yaml");
}
