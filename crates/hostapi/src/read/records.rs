//! Records several resource groups share: hosting contracts and service level
//! agreements.

use super::Fields;
use super::text;
use crate::model::{HostingContract, Sla};

/// A `serverHostingPack`. `owner` names the record's own id and name keys and values
/// (`bareMetalId`, `serverName`…): repeats of the record's are dropped.
pub(crate) fn hosting_contract(
    f: &mut Fields<'_, '_>,
    owner: &[(&str, Option<&str>)],
) -> HostingContract {
    for (key, value) in owner {
        let repeated = f.text(key);
        if let Some(repeated) = repeated
            && Some(repeated.as_str()) != *value
        {
            f.put(key, super::Json::String(repeated.into()));
        }
    }
    HostingContract {
        reference: f.text("reference"),
        monthly_price: f.decimal("serverPrice"),
        start_date: f.parsed("startDate", text::any_date),
        end_date: f.parsed("endDate", text::any_date),
        term: f.parsed("contractTerm", text::contract_term),
        extra: f.unread(),
    }
}

/// A `serviceLevelAgreement` object.
pub(crate) fn sla(f: &mut Fields<'_, '_>) -> Sla {
    Sla {
        name: f.text("sla"),
        monthly_price: f.decimal("pricePerMonth"),
        extra: f.unread(),
    }
}
