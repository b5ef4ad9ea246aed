// Allowed: a hook (use-*.ts) is React code; the server may not import it.
import { useState } from 'react';

export const useRules = () => useState(0);
