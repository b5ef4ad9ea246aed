// Breaks: a shared component imports no feature (decision 110).
import { VehicleCard } from '../features/vehicle/vehicle-card.tsx';

export const card = VehicleCard;
