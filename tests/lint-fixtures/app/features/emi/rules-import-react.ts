// Breaks: a feature's rules, schemas and texts are imported by the server too, so they hold no React.
import { useState } from 'react';

export const state = useState;
