//! The typed ids of every resource, in one place because several resource groups
//! refer to each other's (an IP names its bare metal or rack, a private network its
//! members).

use super::macros::id_type;

id_type! {
    /// The id of a bare metal server (a string in lists, an integer in details).
    BareMetalId
}

id_type! {
    /// The id of a private rack (a string in lists, an integer in details).
    PrivateRackId
}

id_type! {
    /// The id of a private network.
    PrivateNetworkId
}

id_type! {
    /// The id of a DNS record (an integer sent as a string or as a number).
    DnsRecordId
}

id_type! {
    /// The id of an operating system in the catalogue.
    OperatingSystemId
}

id_type! {
    /// The id of a control panel in the catalogue.
    ControlPanelId
}

id_type! {
    /// The id of a rescue image in the catalogue.
    RescueImageId
}

id_type! {
    /// The id of a cloud v2 virtual server.
    CloudServerId
}

id_type! {
    /// The id of a private cloud.
    PrivateCloudId
}

id_type! {
    /// A CDN customer number.
    CustomerNumber
}

id_type! {
    /// A CDN zone id.
    ZoneId
}

id_type! {
    /// The id of a CDN origin.
    OriginId
}

id_type! {
    /// The id of a CDN purge job.
    PurgeJobId
}
