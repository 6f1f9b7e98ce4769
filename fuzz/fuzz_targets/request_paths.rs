//! Ids a server may send, into request building, through
//! `hostapi::internal::wire_id_requests`: any bytes (as text, lossily) read as every
//! typed id is read from the wire. An id its rule refuses builds nothing; an id its
//! rule accepts is put into every parameter of every operation as the generated
//! builders do, and each request must pass the transport's template check with a path
//! of the template's segment count. An `Err` (an accepted id off its template, or a
//! check that let one through) or a panic is a finding.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Err(finding) = hostapi::internal::wire_id_requests(&text) {
        panic!("{finding}");
    }
});
