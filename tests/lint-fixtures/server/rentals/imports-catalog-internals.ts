// Breaks: catalog/listing/ is the catalogue's own (how each database finds a listing); another domain uses catalog/listing.ts.
import { sqliteListing } from '../catalog/listing/sqlite.ts';

export const strategy = sqliteListing;
