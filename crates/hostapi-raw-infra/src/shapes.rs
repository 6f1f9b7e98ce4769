//! Hand-written types the generator is told to use in place of its own
//! (`hostapi-codegen`'s replacements), each for a schema whose generated decoding costs
//! more than the shape needs.

use std::fmt;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::{Serialize, Serializer};

use crate::types::{IpAddressList, IpAddressMap};

/// The spec's `VirtualServerIpAddresses`: an array of `{ip, isNulled, reverseDNS}`, or
/// an object keyed by IP address whose values are `{isNulled, reverseDNS}`.
///
/// The generator makes a `oneOf` an untagged enum, which serde decodes by first copying
/// the whole value into a buffer of its own and then trying each alternative on that
/// copy (under callgrind, 1,600 instructions a server more than decoding the shape
/// directly: a tenth of decoding the whole record). The JSON says which
/// alternative it is by its first character, `[` or `{`: this type decodes that one
/// directly, and a failure inside it names the field at fault rather than "did not
/// match any variant".
#[derive(Clone, Debug)]
pub enum VirtualServerIpAddresses {
    /// The array shape.
    List(IpAddressList),
    /// The object shape, keyed by IP address, in the order sent.
    Map(IpAddressMap),
}

impl From<IpAddressList> for VirtualServerIpAddresses {
    fn from(value: IpAddressList) -> Self {
        Self::List(value)
    }
}

impl From<IpAddressMap> for VirtualServerIpAddresses {
    fn from(value: IpAddressMap) -> Self {
        Self::Map(value)
    }
}

impl Serialize for VirtualServerIpAddresses {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::List(list) => list.serialize(serializer),
            Self::Map(map) => map.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for VirtualServerIpAddresses {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ArrayOrObject)
    }
}

/// Decodes whichever of the two shapes the value has.
struct ArrayOrObject;

impl<'de> Visitor<'de> for ArrayOrObject {
    type Value = VirtualServerIpAddresses;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of IP addresses or an object keyed by IP address")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        IpAddressList::deserialize(SeqAccessDeserializer::new(seq))
            .map(VirtualServerIpAddresses::List)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        IpAddressMap::deserialize(MapAccessDeserializer::new(map))
            .map(VirtualServerIpAddresses::Map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(json: &str) -> Result<VirtualServerIpAddresses, serde_json::Error> {
        serde_json::from_str(json)
    }

    #[test]
    fn each_shape_decodes_as_itself_and_encodes_back_unchanged() {
        let list = r#"[{"ip":"192.0.2.1","isNulled":false,"reverseDNS":"a.example"}]"#;
        let decoded = decode(list).unwrap();
        assert_eq!(serde_json::to_string(&decoded).unwrap(), list);
        match decoded {
            VirtualServerIpAddresses::List(list) => {
                assert_eq!(list.0[0].ip.as_deref(), Some("192.0.2.1"));
            }
            other => panic!("expected the array shape, got {other:?}"),
        }
        let map = r#"{"192.0.2.2":{"isNulled":true},"192.0.2.1":{"isNulled":false}}"#;
        let decoded = decode(map).unwrap();
        assert_eq!(serde_json::to_string(&decoded).unwrap(), map);
        match decoded {
            VirtualServerIpAddresses::Map(map) => {
                let keys: Vec<&str> = map.0.keys().map(String::as_str).collect();
                assert_eq!(keys, ["192.0.2.2", "192.0.2.1"], "wire order is kept");
            }
            other => panic!("expected the keyed shape, got {other:?}"),
        }
        assert!(
            matches!(decode("[]").unwrap(), VirtualServerIpAddresses::List(l) if l.0.is_empty())
        );
    }

    #[test]
    fn a_failure_names_what_is_wrong_inside_the_shape() {
        let inside = decode(r#"[{"ip":"192.0.2.1"},{"ip":7}]"#).unwrap_err();
        assert!(
            inside.to_string().contains("invalid type: integer `7`"),
            "{inside}"
        );
        let neither = decode(r#""192.0.2.1""#).unwrap_err();
        assert!(
            neither
                .to_string()
                .contains("expected an array of IP addresses or an object keyed by IP address"),
            "{neither}"
        );
    }
}
