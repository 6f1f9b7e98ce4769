//! Private rack answers → [`PrivateRack`].

use super::model::{PrivateRack, RackLocation};
use crate::read::records::{hosting_contract, sla};
use crate::read::shapes::wrapped;
use crate::read::{Cursor, FieldError, Fields, Json};

/// `{privateRacks:[{privateRack:{privateRackId}}]}`: the member the racks are under.
pub(crate) const RACKS: &str = "privateRacks";

/// `{privateRack:…}` → the rack (the list's items carry only the id; the detail
/// everything).
pub(crate) fn wrapped_rack(cursor: &mut Cursor, json: Json<'_>) -> Result<PrivateRack, FieldError> {
    wrapped(cursor, json, "privateRack", rack)
}

fn rack(f: &mut Fields<'_, '_>) -> Result<PrivateRack, FieldError> {
    let id: crate::PrivateRackId = f.id("privateRackId")?;
    let name = f.text("privateRackName");
    let owner = [
        ("privateRackId", Some(id.as_str())),
        ("privateRackName", name.as_deref()),
    ];
    Ok(PrivateRack {
        contract: f.object("serverHostingPack", |pack| hosting_contract(pack, &owner)),
        sla: f.object("serviceLevelAgreement", sla),
        location: f.object("location", |l| RackLocation {
            site: l.text("site"),
            suite: l.text("suite"),
            cabinet: l.text("cabinet"),
            extra: l.unread(),
        }),
        id,
        name,
        extra: f.unread(),
    })
}
