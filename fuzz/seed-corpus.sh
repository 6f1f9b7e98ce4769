#!/usr/bin/env bash
# Writes the seed corpus of the `normalize` target: each fixture of tests/fixtures
# under the operation that answers it (`<operation>\n<body>`), and `{}` for every
# other operation. Run from anywhere; writes fuzz/corpus/normalize/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
fixtures="$here/../tests/fixtures"
out="$here/corpus/normalize"
mkdir -p "$out"
seed() { # operation fixture
  printf '%s\n' "$1" | cat - "$fixtures/$2" > "$out/$1--$(basename "$2" .json)"
}
seed infra.listBareMetals bare-metal/list.json
seed infra.getBareMetal bare-metal/detail.json
seed infra.getBareMetal bare-metal/detail_string_id.json
seed infra.getBareMetalInstallationStatus bare-metal/installation_status.json
seed infra.listBareMetalIps bare-metal/ips.json
seed infra.getBareMetalIp bare-metal/ip.json
seed infra.listBareMetalLeases bare-metal/leases.json
seed infra.listBareMetalLeases bare-metal/leases_bare.json
seed infra.getBareMetalLease bare-metal/lease.json
seed infra.getBareMetalNetworkUsage bare-metal/network_usage.json
seed infra.getBareMetalBandwidthUsage bare-metal/bandwidth.json
seed infra.getBareMetalDataTrafficUsage bare-metal/datatraffic.json
seed infra.getBareMetalPowerStatus bare-metal/power_status.json
seed infra.getBareMetalRootPassword bare-metal/root_password.json
seed infra.getBareMetalSwitchPort bare-metal/switch_port.json
seed infra.listDomains infra-rest/domains.json
seed infra.listDnsRecords infra-rest/dns_records.json
seed infra.updateIp bare-metal/ip.json
seed infra.listOperatingSystems infra-rest/operating_systems.json
seed infra.listControlPanels infra-rest/control_panels.json
seed infra.getPartitionSchema infra-rest/partition_schema.json
seed infra.listRescueImages infra-rest/rescue_images.json
seed infra.listServices infra-rest/services.json
seed infra.listPrivateNetworks infra-rest/private_networks.json
seed infra.getPrivateNetwork infra-rest/private_network.json
seed infra.listPrivateRacks infra-rest/private_racks.json
seed infra.getPrivateRack infra-rest/private_rack.json
seed infra.listPrivateRackIps infra-rest/private_rack_ips.json
seed infra.getPrivateRackIp infra-rest/private_rack_ip.json
seed infra.getPrivateRackNetworkUsage infra-rest/private_rack_network_usage.json
seed infra.listVirtualServers infra/virtual_servers.json
seed cloud.listVirtualServers cloud/virtual_servers.json
seed cloud.getVirtualServer cloud/virtual_server.json
seed cloud.listPrivateClouds cloud/private_clouds.json
seed cloud.listVirtualServerCredentials cloud/credentials.json
seed cloud.getVirtualServerCredential cloud/credential.json
seed cloud.getVirtualServerDatatrafficMetrics cloud/datatraffic.json
seed cloud.powerOnVirtualServer cloud/job.json
seed cdn.getPurgeJob cdn/purge_status.json
seed cdn.getAcl cdn/acl.json
seed cdn.getCustomer cdn/customer.json
seed cdn.getSubCustomer cdn/sub_customers.json
seed cdn.listOrigins cdn/origins.json
seed cdn.getOrigin cdn/origin_success.json
seed cdn.getOrigin cdn/origin_succes.json
for operation in infra.getDomain infra.getDnsRecord infra.getOperatingSystem \
  infra.getControlPanel infra.createPrivateNetwork infra.deletePrivateNetwork \
  infra.getVirtualServer infra.rebootVirtualServer cdn.purgeZoneContent; do
  printf '%s\n{}' "$operation" > "$out/$operation--empty"
done
echo "seeded $(ls "$out" | wc -l) inputs in $out"
