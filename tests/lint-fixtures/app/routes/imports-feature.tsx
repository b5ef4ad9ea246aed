// Allowed: route modules compose features.
import { VehicleCard } from '../features/vehicle/vehicle-card.tsx';

export const card = VehicleCard;
