// Breaks: server code imports from app/ only app/lib.
import { VehicleCard } from '../app/features/vehicle/vehicle-card.tsx';

export const card = VehicleCard;
