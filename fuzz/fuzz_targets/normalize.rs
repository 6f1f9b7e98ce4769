//! Every normaliser of the facade, through `hostapi::internal::decode`, fed any bytes.
//!
//! An input names its operation on its first line (`infra.getBareMetal\n{…}`, the form
//! of the seed corpus); an input whose first line is no operation picks one with its
//! first byte (and the reading mode, lenient or strict, with its top bit) and is the
//! body from the second byte on. Whatever the body, decoding must answer a value or
//! `Error::Decode` naming the operation: a panic (or an allocation beyond libFuzzer's
//! `-malloc_limit_mb`) is a finding.

#![no_main]

use hostapi::Error;
use hostapi::internal::{Mode, OPERATIONS, decode};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let mode = if first & 0x80 == 0 {
        Mode::Lenient
    } else {
        Mode::Strict
    };
    let named = data.iter().position(|&b| b == b'\n').and_then(|end| {
        let name = std::str::from_utf8(&data[..end]).ok()?;
        let operation = OPERATIONS.iter().find(|op| **op == name)?;
        Some((*operation, &data[end + 1..]))
    });
    let (operation, body) =
        named.unwrap_or((OPERATIONS[usize::from(first & 0x7f) % OPERATIONS.len()], rest));
    match decode(operation, body, mode) {
        Ok(_) => {}
        Err(Error::Decode(error)) => {
            if let Some(call) = &error.call {
                assert!(
                    operation.ends_with(call.operation),
                    "{operation} reported as {}",
                    call.operation
                );
            }
        }
        Err(other) => panic!("{operation}: not a decode error: {other:?}"),
    }
});
