// Allowed: a module directly in server/catalog/ is the catalogue's public surface.
import { createVehicleListing } from '../catalog/listing.ts';

export const listing = createVehicleListing;
