/**
 * Procedural demo "photos" of cars, as standalone SVG documents (1600x1200, 4:3).
 *
 * Pure string building, no dependencies. Only SVG features that librsvg (sharp)
 * renders reliably are used: linear/radial gradients, clipPath, path, rect, circle,
 * ellipse, g transforms, opacity and text with a generic sans-serif font.
 *
 * angle (0..5, wraps) picks a different "photo" of the same car:
 *   0  side view facing right, outdoor road, blue sky
 *   1  rear three-quarter view, dealer lot at golden hour
 *   2  front three-quarter view, indoor showroom with floor reflection
 *   3  front view with number plate, parking lot under a soft overcast sky
 *   4  interior: dashboard, steering wheel (right-hand drive) and hood through the windshield
 *   5  rear view with number plate and lit tail lamps, city road at dusk
 *
 * Each body style has its own outline; `model` reshapes it where a model is distinctive (a
 * WagonR is a tall box, a Fortuner is longer and taller than a Creta, a Thar has two doors and
 * a spare wheel), so a lot of cars does not look like a few shapes repainted.
 */

export type CarBody = 'hatchback' | 'sedan' | 'compact-suv' | 'suv' | 'offroader' | 'muv' | 'luxury' | 'pickup';

export type DrawCarOptions = {
  body: CarBody;
  /** The model's name as the inventory writes it ('Creta', 'Thar'): picks its proportions. */
  model?: string;
  colour: string;
  angle: number;
  background?: string;
  plate?: string;
};

const VIEW_W = 1600;
const VIEW_H = 1200;

// ---------------------------------------------------------------------------
// colour helpers

type RGB = [number, number, number];

const NAMED_COLOURS: Record<string, string> = {
  white: '#f4f5f0',
  black: '#16171a',
  silver: '#c3c6ca',
  grey: '#6b6e72',
  gray: '#6b6e72',
  red: '#b3201c',
  blue: '#1f3f8f',
  green: '#2f5d3a',
  brown: '#6b4a32',
  orange: '#d2691e',
  yellow: '#e0b626',
  beige: '#d8c8a8',
  maroon: '#6d1a24',
};

function parseColour(input: string | undefined): RGB | null {
  if (!input) return null;
  let s = input.trim().toLowerCase();
  const named = NAMED_COLOURS[s];
  if (named) s = named;
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/.exec(s);
  const hex = m?.[1];
  if (!hex) return null;
  const full = hex.length === 3 ? hex.replace(/./g, (ch) => ch + ch) : hex;
  return [parseInt(full.slice(0, 2), 16), parseInt(full.slice(2, 4), 16), parseInt(full.slice(4, 6), 16)];
}

function toHex(c: RGB): string {
  return (
    '#' +
    c
      .map((v) =>
        Math.max(0, Math.min(255, Math.round(v)))
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')
  );
}

function mix(a: RGB, b: RGB, t: number): RGB {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

/** t > 0 lightens towards white, t < 0 darkens towards black. */
function shade(c: RGB, t: number): string {
  return toHex(t >= 0 ? mix(c, [255, 255, 255], t) : mix(c, [0, 0, 0], -t));
}

function luminance(c: RGB): number {
  return (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255;
}

// ---------------------------------------------------------------------------
// geometry helpers

function f(n: number): string {
  return String(Math.round(n * 10) / 10);
}

/** Scale factors need more precision than coordinates. */
function k(n: number): string {
  return String(Math.round(n * 100000) / 100000);
}

/** [x, y, cornerRadius] */
type Pt = readonly [number, number, number];

/** Closed polygon with rounded (quadratic) corners. */
function roundPath(pts: readonly Pt[]): string {
  const n = pts.length;
  let d = '';
  for (let i = 0; i < n; i++) {
    const cur = pts[i] as Pt;
    const prev = pts[(i - 1 + n) % n] as Pt;
    const next = pts[(i + 1) % n] as Pt;
    const [x, y, r] = cur;
    const d1 = Math.hypot(prev[0] - x, prev[1] - y) || 1;
    const d2 = Math.hypot(next[0] - x, next[1] - y) || 1;
    const rr = Math.min(r, d1 / 2, d2 / 2);
    const ax = x + ((prev[0] - x) / d1) * rr;
    const ay = y + ((prev[1] - y) / d1) * rr;
    const bx = x + ((next[0] - x) / d2) * rr;
    const by = y + ((next[1] - y) / d2) * rr;
    d += `${i === 0 ? 'M' : 'L'}${f(ax)} ${f(ay)}Q${f(x)} ${f(y)} ${f(bx)} ${f(by)}`;
  }
  return d + 'Z';
}

/** Car-space points are [x, height above ground, radius]; SVG y grows downwards. */
function up(pts: readonly Pt[]): Pt[] {
  return pts.map(([x, h, r]) => [x, -h, r] as const);
}

function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : ch === '"' ? '&quot;' : '&apos;'));
}

/** Deterministic pseudo random numbers so the same car always renders identically. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

// ---------------------------------------------------------------------------
// body specifications (millimetres)

type Split = { x: number; w: number; lean: number };

type BodySpec = {
  L: number; // length
  W: number; // width
  wr: number; // tyre radius
  clr: number; // lowest body height between the wheels
  rwx: number; // rear wheel centre x
  fwx: number; // front wheel centre x
  roofH: number;
  beltH: number;
  noseH: number; // top of the front face (front/rear views)
  sillH: number;
  outline: Pt[]; // [x, h, r], clockwise from rear bottom
  windows: Pt[];
  splits: Split[]; // blacked-out pillars crossing the glass
  doorLines: number[]; // x of vertical door shut lines at the belt line
  handles: number[]; // x of door handles
  character: [number, number, number, number]; // x1,h1,x2,h2 of shoulder crease
  headlight: Pt[];
  taillight: Pt[];
  rim: 'alloy5' | 'multi' | 'six';
  cladding: boolean;
  roofRails: boolean;
  chromeTrim: boolean;
  bed: boolean;
  /** A spare wheel on the tailgate (off-roaders). */
  spare?: boolean;
};

const SPECS: Record<CarBody, BodySpec> = {
  hatchback: {
    L: 3850,
    W: 1735,
    wr: 300,
    clr: 170,
    rwx: 650,
    fwx: 3110,
    roofH: 1525,
    beltH: 1040,
    noseH: 820,
    sillH: 320,
    outline: [
      [70, 210, 40],
      [0, 470, 90],
      [45, 1030, 170],
      [330, 1480, 230],
      [1900, 1525, 320],
      [2880, 1040, 150],
      [3720, 860, 170],
      [3850, 500, 100],
      [3770, 210, 50],
    ],
    windows: [
      [430, 1045, 30],
      [590, 1410, 70],
      [1890, 1455, 120],
      [2710, 1050, 30],
    ],
    splits: [{ x: 1560, w: 80, lean: -25 }],
    doorLines: [2760, 1600, 930],
    handles: [2420, 1300],
    character: [120, 920, 3560, 800],
    headlight: [
      [3440, 890, 20],
      [3770, 845, 50],
      [3835, 700, 30],
      [3520, 770, 30],
    ],
    taillight: [
      [12, 1010, 20],
      [170, 1020, 30],
      [190, 780, 30],
      [20, 740, 20],
    ],
    rim: 'alloy5',
    cladding: false,
    roofRails: false,
    chromeTrim: false,
    bed: false,
  },
  sedan: {
    L: 4550,
    W: 1750,
    wr: 305,
    clr: 165,
    rwx: 960,
    fwx: 3560,
    roofH: 1480,
    beltH: 1020,
    noseH: 800,
    sillH: 310,
    outline: [
      [70, 220, 40],
      [0, 500, 90],
      [35, 950, 80],
      [700, 1010, 150],
      [1450, 1440, 320],
      [2650, 1480, 320],
      [3400, 995, 150],
      [4420, 805, 180],
      [4550, 490, 100],
      [4470, 210, 50],
    ],
    windows: [
      [1010, 1025, 30],
      [1520, 1395, 90],
      [2620, 1425, 120],
      [3230, 1035, 30],
    ],
    splits: [
      { x: 2250, w: 85, lean: -25 },
      { x: 1330, w: 45, lean: 90 },
    ],
    doorLines: [3280, 2290, 1330],
    handles: [3000, 2030],
    character: [80, 900, 4200, 790],
    headlight: [
      [4080, 860, 20],
      [4470, 800, 50],
      [4535, 690, 30],
      [4180, 740, 30],
    ],
    taillight: [
      [20, 940, 20],
      [380, 985, 30],
      [360, 860, 30],
      [35, 820, 20],
    ],
    rim: 'alloy5',
    cladding: false,
    roofRails: false,
    chromeTrim: true,
    bed: false,
  },
  suv: {
    L: 4300,
    W: 1790,
    wr: 345,
    clr: 205,
    rwx: 830,
    fwx: 3440,
    roofH: 1650,
    beltH: 1175,
    noseH: 1010,
    sillH: 360,
    outline: [
      [55, 290, 40],
      [0, 640, 80],
      [40, 1140, 110],
      [380, 1600, 190],
      [2350, 1650, 300],
      [3230, 1185, 140],
      [4180, 1015, 180],
      [4300, 600, 100],
      [4220, 290, 50],
    ],
    windows: [
      [470, 1175, 30],
      [630, 1545, 60],
      [2330, 1592, 120],
      [3060, 1190, 30],
    ],
    splits: [
      { x: 1920, w: 90, lean: -25 },
      { x: 1000, w: 110, lean: 70 },
    ],
    doorLines: [3080, 1960, 1080],
    handles: [2760, 1750],
    character: [90, 1050, 4000, 930],
    headlight: [
      [3880, 1050, 20],
      [4230, 1010, 40],
      [4275, 900, 30],
      [3960, 935, 30],
    ],
    taillight: [
      [12, 1140, 20],
      [280, 1150, 30],
      [255, 960, 30],
      [22, 930, 20],
    ],
    rim: 'six',
    cladding: true,
    roofRails: true,
    chromeTrim: false,
    bed: false,
  },
  muv: {
    L: 4735,
    W: 1830,
    wr: 335,
    clr: 180,
    rwx: 890,
    fwx: 3640,
    roofH: 1790,
    beltH: 1190,
    noseH: 930,
    sillH: 330,
    outline: [
      [45, 260, 40],
      [0, 600, 80],
      [15, 1180, 110],
      [110, 1745, 180],
      [2850, 1790, 300],
      [3700, 1175, 170],
      [4600, 945, 180],
      [4735, 520, 100],
      [4660, 250, 50],
    ],
    windows: [
      [255, 1195, 30],
      [320, 1695, 50],
      [2800, 1730, 130],
      [3500, 1205, 30],
    ],
    splits: [
      { x: 2420, w: 90, lean: -25 },
      { x: 1320, w: 90, lean: 10 },
    ],
    doorLines: [3520, 2460, 1330],
    handles: [3200, 2150],
    character: [70, 1080, 4450, 880],
    headlight: [
      [4220, 990, 20],
      [4650, 935, 50],
      [4720, 790, 30],
      [4300, 850, 30],
    ],
    taillight: [
      [8, 1170, 20],
      [130, 1180, 30],
      [120, 800, 30],
      [12, 780, 20],
    ],
    rim: 'alloy5',
    cladding: false,
    roofRails: true,
    chromeTrim: true,
    bed: false,
  },
  'compact-suv': {
    // Sub-four-metre SUVs (Nexon, Brezza, Sonet, Punch): tall, short, a chopped tail.
    L: 3995,
    W: 1790,
    wr: 335,
    clr: 200,
    rwx: 640,
    fwx: 3140,
    roofH: 1620,
    beltH: 1150,
    noseH: 990,
    sillH: 350,
    outline: [
      [50, 290, 40],
      [0, 650, 70],
      [10, 1140, 90],
      [150, 1590, 150],
      [2200, 1620, 260],
      [2930, 1165, 130],
      [3880, 1000, 170],
      [3995, 600, 100],
      [3920, 290, 50],
    ],
    windows: [
      [300, 1160, 30],
      [390, 1540, 50],
      [2170, 1568, 110],
      [2760, 1175, 30],
    ],
    splits: [
      { x: 1660, w: 90, lean: -25 },
      { x: 860, w: 120, lean: 60 },
    ],
    doorLines: [2800, 1700, 960],
    handles: [2500, 1500],
    character: [80, 1040, 3700, 930],
    headlight: [
      [3560, 1030, 20],
      [3920, 995, 40],
      [3970, 890, 30],
      [3650, 925, 30],
    ],
    taillight: [
      [10, 1130, 20],
      [250, 1140, 30],
      [225, 960, 30],
      [20, 930, 20],
    ],
    rim: 'alloy5',
    cladding: true,
    roofRails: true,
    chromeTrim: false,
    bed: false,
  },
  offroader: {
    // Body-on-frame boxes (Bolero, Scorpio, Thar): upright glass, flat bonnet, square corners.
    L: 4400,
    W: 1820,
    wr: 365,
    clr: 225,
    rwx: 820,
    fwx: 3500,
    roofH: 1880,
    beltH: 1260,
    noseH: 1140,
    sillH: 420,
    outline: [
      [40, 330, 30],
      [0, 700, 40],
      [0, 1250, 30],
      [40, 1860, 60],
      [2380, 1880, 70],
      [2600, 1270, 40],
      [4300, 1160, 70],
      [4400, 800, 50],
      [4370, 330, 40],
    ],
    windows: [
      [260, 1275, 20],
      [290, 1800, 30],
      [2330, 1815, 40],
      [2530, 1280, 20],
    ],
    splits: [
      { x: 1700, w: 110, lean: 0 },
      { x: 900, w: 130, lean: 0 },
    ],
    doorLines: [2560, 1720, 900],
    handles: [2300, 1450],
    character: [60, 1110, 4300, 1090],
    headlight: [
      [4290, 1110, 20],
      [4390, 1100, 30],
      [4395, 960, 30],
      [4300, 960, 20],
    ],
    taillight: [
      [0, 1160, 10],
      [70, 1160, 10],
      [70, 880, 10],
      [0, 880, 10],
    ],
    rim: 'six',
    cladding: true,
    roofRails: false,
    chromeTrim: false,
    bed: false,
  },
  luxury: {
    L: 4750,
    W: 1830,
    wr: 330,
    clr: 145,
    rwx: 1000,
    fwx: 3850,
    roofH: 1440,
    beltH: 995,
    noseH: 780,
    sillH: 290,
    outline: [
      [60, 200, 40],
      [0, 480, 90],
      [50, 940, 90],
      [650, 990, 170],
      [1550, 1410, 340],
      [2700, 1440, 330],
      [3580, 955, 150],
      [4620, 765, 190],
      [4750, 460, 100],
      [4680, 200, 50],
    ],
    windows: [
      [1020, 1000, 30],
      [1610, 1372, 100],
      [2680, 1392, 130],
      [3380, 995, 30],
    ],
    splits: [
      { x: 2320, w: 85, lean: -25 },
      { x: 1440, w: 40, lean: 100 },
    ],
    doorLines: [3420, 2360, 1440],
    handles: [3120, 2100],
    character: [80, 880, 4450, 760],
    headlight: [
      [4250, 820, 20],
      [4650, 765, 50],
      [4725, 655, 30],
      [4330, 690, 30],
    ],
    taillight: [
      [15, 930, 20],
      [430, 975, 30],
      [410, 860, 30],
      [35, 820, 20],
    ],
    rim: 'multi',
    cladding: false,
    roofRails: false,
    chromeTrim: true,
    bed: false,
  },
  pickup: {
    L: 5300,
    W: 1860,
    wr: 370,
    clr: 240,
    rwx: 990,
    fwx: 4060,
    roofH: 1820,
    beltH: 1280,
    noseH: 1100,
    sillH: 400,
    outline: [
      [30, 330, 30],
      [0, 1165, 30],
      [1750, 1165, 20],
      [1790, 1790, 150],
      [3150, 1820, 230],
      [3750, 1270, 140],
      [4800, 1140, 170],
      [5270, 1055, 110],
      [5300, 620, 90],
      [5220, 330, 60],
    ],
    windows: [
      [1930, 1285, 30],
      [1965, 1735, 50],
      [3120, 1762, 120],
      [3625, 1292, 30],
    ],
    splits: [{ x: 2800, w: 90, lean: -20 }],
    doorLines: [3640, 2830, 1960, 1770],
    handles: [3420, 2600],
    character: [30, 1080, 4700, 1030],
    headlight: [
      [4700, 1130, 20],
      [5230, 1050, 50],
      [5275, 950, 30],
      [4760, 1010, 30],
    ],
    taillight: [
      [0, 1120, 10],
      [80, 1120, 10],
      [80, 780, 10],
      [0, 780, 10],
    ],
    rim: 'six',
    cladding: true,
    roofRails: false,
    chromeTrim: true,
    bed: true,
  },
};

/**
 * A model's proportions against its body style's outline: longer or shorter (length), taller
 * (height), bigger wheels, squarer corners, and any field of the body spec it does differently.
 */
type ModelShape = { length?: number; height?: number; wheel?: number; boxy?: boolean } & Partial<Omit<BodySpec, 'outline' | 'windows'>>;

const MODEL_SHAPES: Record<string, ModelShape> = {
  // hatchbacks
  Baleno: { length: 1.03, rim: 'multi' },
  Glanza: { length: 1.03, chromeTrim: true },
  WagonR: { length: 0.95, height: 1.1, boxy: true, wheel: 0.9 },
  i20: { length: 1.03, height: 0.98, rim: 'multi', chromeTrim: true },
  Tiago: { length: 0.98, height: 1.01 },
  Altroz: { length: 1.03, height: 0.99, rim: 'multi' },
  Kwid: { length: 0.95, height: 1.02, wheel: 0.92, cladding: true },
  'Grand i10 Nios': { length: 0.97, height: 1.01 },
  // sedans
  Dzire: { length: 0.88, height: 1.02 },
  Amaze: { length: 0.88, height: 1.03, chromeTrim: true },
  Verna: { length: 1.01, height: 0.97, rim: 'multi' },
  Ciaz: { length: 1.0, height: 1.01 },
  Slavia: { length: 0.99 },
  Virtus: { length: 1.0, rim: 'multi' },
  City: { length: 1.02, height: 0.99 },
  // SUVs
  Creta: { length: 1.0 },
  Seltos: { length: 1.03, rim: 'multi' },
  Taigun: { length: 0.98, height: 0.98 },
  Hector: { length: 1.09, height: 1.05, chromeTrim: true, wheel: 1.04 },
  Compass: { length: 1.02, rim: 'multi', cladding: false },
  XUV700: { length: 1.08, height: 1.02, wheel: 1.05, chromeTrim: true },
  'ZS EV': { length: 1.0, height: 0.98, cladding: false },
  Fortuner: { length: 1.12, height: 1.1, wheel: 1.07, chromeTrim: true, rim: 'six' },
  Q3: { length: 1.03, height: 0.96, rim: 'multi', chromeTrim: true, cladding: false, roofRails: true },
  X1: { length: 1.05, height: 0.97, rim: 'multi', chromeTrim: true, cladding: false, roofRails: false },
  Nexon: { length: 1.0, height: 0.98 },
  'Nexon EV': { length: 1.0, height: 0.98, rim: 'multi' },
  Brezza: { height: 1.02, boxy: true },
  Sonet: { height: 0.99, rim: 'multi', chromeTrim: true },
  Punch: { length: 0.96, height: 1.0, wheel: 0.97 },
  // off-roaders
  Thar: { length: 0.91, doorLines: [2560, 1750], handles: [2300], splits: [{ x: 1750, w: 120, lean: 0 }], spare: true },
  Bolero: { length: 0.99, height: 0.99, rim: 'alloy5' },
  'Scorpio-N': { length: 1.05, height: 0.97, chromeTrim: true, roofRails: true, boxy: false },
  // MUVs
  'Innova Crysta': { length: 1.0 },
  'Innova Hycross': { length: 1.02, height: 0.96, rim: 'multi' },
  Ertiga: { length: 0.94, height: 0.93, wheel: 0.92 },
  Carens: { length: 0.96, height: 0.94, cladding: true },
  Triber: { length: 0.85, height: 0.95, wheel: 0.9 },
  // luxury
  '3 Series': { length: 0.98 },
  'C-Class': { length: 0.99, height: 1.01 },
  'E-Class': { length: 1.05, height: 1.02 },
  A4: { length: 1.0, height: 1.0, rim: 'alloy5' },
  Camry: { length: 1.03, height: 1.02, rim: 'alloy5' },
};

/** The body style's spec reshaped to the model's proportions (the body's own when the model is not known). */
function specFor(body: CarBody, model: string | undefined): BodySpec {
  const base = SPECS[body] ?? SPECS.sedan;
  const shape = model ? MODEL_SHAPES[model] : undefined;
  if (!shape) return base;
  const { length = 1, height = 1, wheel = 1, boxy = false, ...fields } = shape;
  const merged: BodySpec = { ...base, ...fields };
  const point = ([x, h, r]: Pt): Pt => [x * length, h * height, boxy ? r * 0.45 : r];
  const [cx1, ch1, cx2, ch2] = merged.character;
  return {
    ...merged,
    L: merged.L * length,
    wr: merged.wr * wheel,
    clr: merged.clr * height,
    rwx: merged.rwx * length,
    fwx: merged.fwx * length,
    roofH: merged.roofH * height,
    beltH: merged.beltH * height,
    noseH: merged.noseH * height,
    sillH: merged.sillH * height,
    outline: merged.outline.map(point),
    windows: base.windows.map(point),
    splits: merged.splits.map((split) => ({ ...split, x: split.x * length })),
    doorLines: merged.doorLines.map((x) => x * length),
    handles: merged.handles.map((x) => x * length),
    character: [cx1 * length, ch1 * height, cx2 * length, ch2 * height],
    headlight: merged.headlight.map(point),
    taillight: merged.taillight.map(point),
  };
}

// ---------------------------------------------------------------------------
// shared defs

function paintStops(paint: RGB, tBelt: number): string {
  const t = Math.max(0.15, Math.min(0.6, tBelt));
  const stops: [number, string][] = [
    [0, shade(paint, 0.2)],
    [t - 0.03, shade(paint, 0.08)],
    [t + 0.03, shade(paint, 0.38)],
    [t + 0.1, shade(paint, 0.08)],
    [t + 0.24, shade(paint, 0)],
    [Math.min(0.86, t + 0.42), shade(paint, -0.12)],
    [1, shade(paint, -0.45)],
  ];
  return stops.map(([o, c]) => `<stop offset="${f(o)}" stop-color="${c}"/>`).join('');
}

function commonDefs(paint: RGB, spec: BodySpec): string {
  const tBelt = (spec.roofH - spec.beltH) / (spec.roofH - spec.clr);
  const dark = luminance(paint) < 0.2;
  return [
    `<linearGradient id="paint" x1="0" y1="0" x2="0" y2="1">${paintStops(paint, tBelt)}</linearGradient>`,
    `<linearGradient id="paintFront" x1="0" y1="0" x2="0" y2="1">${paintStops(paint, 0.32)}</linearGradient>`,
    `<linearGradient id="ends" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#000" stop-opacity="0.28"/><stop offset="0.07" stop-color="#000" stop-opacity="0"/><stop offset="0.93" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.28"/></linearGradient>`,
    `<linearGradient id="hood" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${shade(paint, dark ? 0.3 : 0.25)}"/><stop offset="1" stop-color="${shade(paint, 0.05)}"/></linearGradient>`,
    `<linearGradient id="glass" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#55697c"/><stop offset="0.45" stop-color="#243342"/><stop offset="1" stop-color="#0e151c"/></linearGradient>`,
    `<radialGradient id="rimG" cx="0.4" cy="0.35" r="0.75"><stop offset="0" stop-color="#f4f5f7"/><stop offset="0.6" stop-color="#c4c8ce"/><stop offset="1" stop-color="#8a8f96"/></radialGradient>`,
    `<radialGradient id="gunG" cx="0.4" cy="0.35" r="0.75"><stop offset="0" stop-color="#a9adb3"/><stop offset="0.6" stop-color="#6d7178"/><stop offset="1" stop-color="#44474c"/></radialGradient>`,
    `<radialGradient id="shadow" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#000" stop-opacity="0.6"/><stop offset="0.6" stop-color="#000" stop-opacity="0.35"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>`,
    `<linearGradient id="lamp" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="0.5" stop-color="#dfe6ee"/><stop offset="1" stop-color="#9aa6b2"/></linearGradient>`,
    `<linearGradient id="tail" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ff5a5f"/><stop offset="0.5" stop-color="#c8141c"/><stop offset="1" stop-color="#7a0a0f"/></linearGradient>`,
    `<radialGradient id="tailGlow" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#ff3b30" stop-opacity="0.55"/><stop offset="1" stop-color="#ff3b30" stop-opacity="0"/></radialGradient>`,
    `<radialGradient id="lampGlow" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#fffbe8" stop-opacity="0.7"/><stop offset="1" stop-color="#fffbe8" stop-opacity="0"/></radialGradient>`,
    `<linearGradient id="chrome" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="0.5" stop-color="#b9bec5"/><stop offset="0.55" stop-color="#7c828a"/><stop offset="1" stop-color="#dfe3e8"/></linearGradient>`,
  ].join('');
}

// ---------------------------------------------------------------------------
// wheels

function wheel(cx: number, cy: number, r: number, style: BodySpec['rim'], luxury: boolean): string {
  const rim = r * 0.66;
  const out: string[] = [];
  out.push(`<g transform="translate(${f(cx)} ${f(cy)})">`);
  out.push(`<circle r="${f(r)}" fill="#17181a"/>`);
  out.push(`<circle r="${f(r * 0.95)}" fill="none" stroke="#2c2d31" stroke-width="${f(r * 0.04)}"/>`);
  out.push(`<circle r="${f(r * 0.8)}" fill="none" stroke="#232427" stroke-width="${f(r * 0.07)}"/>`);
  out.push(`<circle r="${f(rim * 1.05)}" fill="#3b3d42"/>`);
  out.push(`<circle r="${f(rim)}" fill="url(#${style === 'six' ? 'gunG' : 'rimG'})"/>`);
  out.push(`<circle r="${f(rim * 0.9)}" fill="#1b1c1f"/>`);
  // brake disc + caliper
  out.push(`<circle r="${f(rim * 0.66)}" fill="#75787d"/>`);
  out.push(`<circle r="${f(rim * 0.56)}" fill="none" stroke="#5f6266" stroke-width="${f(rim * 0.03)}"/>`);
  out.push(`<circle r="${f(rim * 0.3)}" fill="#4a4c50"/>`);
  out.push(
    `<rect x="${f(-rim * 0.2)}" y="${f(-rim * 0.74)}" width="${f(rim * 0.4)}" height="${f(rim * 0.24)}" rx="${f(rim * 0.08)}" fill="${luxury ? '#1f4fa8' : '#3a3c40'}" transform="rotate(-40)"/>`,
  );
  const spokes = style === 'multi' ? 10 : style === 'six' ? 6 : 5;
  const fill = style === 'six' ? '#7a7e85' : '#cfd3d8';
  const edge = style === 'six' ? '#4b4e53' : '#8d9298';
  const hubR = rim * 0.22;
  const drawSpoke = (w1: number, w2: number, rot: number): void => {
    out.push(
      `<path d="M${f(-w1 / 2)} ${f(-hubR)}L${f(-w2 / 2)} ${f(-rim * 0.9)}L${f(w2 / 2)} ${f(-rim * 0.9)}L${f(w1 / 2)} ${f(-hubR)}Z" fill="${fill}" stroke="${edge}" stroke-width="${f(rim * 0.02)}" transform="rotate(${f(rot)})"/>`,
    );
  };
  for (let i = 0; i < spokes; i++) {
    const rot = (360 / spokes) * i;
    if (style === 'alloy5') {
      drawSpoke(rim * 0.1, rim * 0.16, rot - 7);
      drawSpoke(rim * 0.1, rim * 0.16, rot + 7);
    } else if (style === 'multi') {
      drawSpoke(rim * 0.1, rim * 0.13, rot);
    } else {
      drawSpoke(rim * 0.2, rim * 0.3, rot);
    }
  }
  out.push(`<circle r="${f(rim * 0.9)}" fill="none" stroke="${edge}" stroke-width="${f(rim * 0.03)}"/>`);
  out.push(`<circle r="${f(hubR)}" fill="url(#${style === 'six' ? 'gunG' : 'rimG'})" stroke="${edge}" stroke-width="${f(rim * 0.02)}"/>`);
  out.push(`<circle r="${f(hubR * 0.5)}" fill="#2a2b2f"/>`);
  for (let i = 0; i < spokes; i++) {
    const a = ((360 / spokes) * (i + 0.5) * Math.PI) / 180;
    out.push(`<circle cx="${f(Math.sin(a) * hubR * 0.72)}" cy="${f(-Math.cos(a) * hubR * 0.72)}" r="${f(rim * 0.025)}" fill="#3a3b3f"/>`);
  }
  // soft top-light on the tyre
  out.push(
    `<path d="M${f(-r * 0.7)} ${f(-r * 0.7)}A${f(r)} ${f(r)} 0 0 1 ${f(r * 0.7)} ${f(-r * 0.7)}" fill="none" stroke="#ffffff" stroke-opacity="0.06" stroke-width="${f(r * 0.05)}"/>`,
  );
  out.push('</g>');
  return out.join('');
}

// ---------------------------------------------------------------------------
// side view (car space: x = mm from rear bumper, y = -height)

function sideCar(spec: BodySpec, paint: RGB): string {
  const out: string[] = [];
  const { wr, clr, rwx, fwx, L } = spec;
  const ra = wr * 1.13;
  const dark = luminance(paint) < 0.2;

  // ground shadow
  out.push(`<ellipse cx="${f(L / 2)}" cy="${f(-10)}" rx="${f(L * 0.56)}" ry="${f(wr * 0.32)}" fill="url(#shadow)"/>`);
  for (const wx of [rwx, fwx]) {
    out.push(`<ellipse cx="${f(wx)}" cy="-4" rx="${f(wr * 1.05)}" ry="${f(wr * 0.1)}" fill="#000" opacity="0.55"/>`);
  }

  // wheels behind the far side (a hint of the other pair, adds depth)
  out.push(`<circle cx="${f(rwx + 40)}" cy="${f(-wr)}" r="${f(wr * 0.97)}" fill="#0d0d0f"/>`);
  out.push(`<circle cx="${f(fwx + 40)}" cy="${f(-wr)}" r="${f(wr * 0.97)}" fill="#0d0d0f"/>`);

  // shark fin antenna
  if (!spec.roofRails) {
    const o = spec.outline;
    const rr0 = o.find((p) => p[1] >= spec.roofH - 60) ?? [0, 0, 0];
    const ax = rr0[0] + 260;
    out.push(
      `<path d="M${f(ax)} ${f(-spec.roofH + 150)}Q${f(ax + 30)} ${f(-spec.roofH - 50)} ${f(ax + 90)} ${f(-spec.roofH - 45)}L${f(ax + 170)} ${f(-spec.roofH + 150)}Z" fill="#1b1c1f"/>`,
    );
  }

  if (spec.spare) {
    // the spare wheel on the tailgate, seen edge on
    out.push(
      `<rect x="${f(-wr * 0.55)}" y="${f(-(spec.beltH + wr * 0.2))}" width="${f(wr * 0.75)}" height="${f(wr * 1.9)}" rx="${f(wr * 0.3)}" fill="#17181a"/>`,
    );
  }
  const bodyPath = roundPath(up(spec.outline));
  out.push(`<path d="${bodyPath}" fill="url(#paint)"/>`);
  out.push(`<path d="${bodyPath}" fill="url(#ends)"/>`);

  // pickup load bed rail
  if (spec.bed) {
    out.push(`<rect x="20" y="${f(-1190)}" width="1740" height="55" rx="20" fill="#222326"/>`);
    out.push(`<path d="M1770 ${f(-1160)}L1770 ${f(-360)}" stroke="${shade(paint, -0.55)}" stroke-width="14"/>`);
    out.push(`<rect x="60" y="${f(-1020)}" width="160" height="40" rx="15" fill="#2a2b2e"/>`);
  }

  // shoulder crease
  const [cx1, ch1, cx2, ch2] = spec.character;
  out.push(
    `<path d="M${f(cx1)} ${f(-ch1)}L${f(cx2)} ${f(-ch2)}" stroke="${shade(paint, 0.45)}" stroke-opacity="0.7" stroke-width="14" stroke-linecap="round"/>`,
  );
  out.push(
    `<path d="M${f(cx1)} ${f(-ch1 + 16)}L${f(cx2)} ${f(-ch2 + 16)}" stroke="${shade(paint, -0.35)}" stroke-opacity="0.45" stroke-width="10" stroke-linecap="round"/>`,
  );

  // lower sill / cladding
  const sillTop = spec.sillH;
  const sillPts: Pt[] = [
    [rwx + ra * 0.6, sillTop, 20],
    [fwx - ra * 0.6, sillTop, 20],
    [fwx - ra * 0.6, clr - 5, 10],
    [rwx + ra * 0.6, clr - 5, 10],
  ];
  out.push(`<path d="${roundPath(up(sillPts))}" fill="${spec.cladding ? '#26272a' : shade(paint, -0.5)}" opacity="${spec.cladding ? 1 : 0.55}"/>`);
  if (spec.cladding) {
    // lower bumper cladding at both ends
    out.push(
      `<path d="${roundPath(
        up([
          [40, 520, 40],
          [rwx - ra * 0.5, 520, 20],
          [rwx - ra * 0.5, 300, 10],
          [60, 290, 40],
        ]),
      )}" fill="#26272a"/>`,
    );
    out.push(
      `<path d="${roundPath(
        up([
          [fwx + ra * 0.5, 480, 20],
          [L - 40, 480, 40],
          [L - 90, 300, 40],
          [fwx + ra * 0.5, 300, 10],
        ]),
      )}" fill="#26272a"/>`,
    );
  }

  // glass
  const winPath = roundPath(up(spec.windows));
  out.push(`<clipPath id="winClip"><path d="${winPath}"/></clipPath>`);
  out.push(
    `<path d="${winPath}" fill="${spec.chromeTrim ? '#c9ced4' : '#141518'}" stroke="${spec.chromeTrim ? '#c9ced4' : '#141518'}" stroke-width="36" stroke-linejoin="round"/>`,
  );
  out.push(`<path d="${winPath}" fill="url(#glass)"/>`);
  out.push('<g clip-path="url(#winClip)">');
  // seats / head restraints silhouettes
  const winTop = Math.max(...spec.windows.map((p) => p[1]));
  const wx0 = Math.min(...spec.windows.map((p) => p[0]));
  const wx1 = Math.max(...spec.windows.map((p) => p[0]));
  const hrH = spec.beltH + (winTop - spec.beltH) * 0.45;
  for (const t of [0.3, 0.7]) {
    const hx = wx0 + (wx1 - wx0) * t;
    out.push(`<rect x="${f(hx - 90)}" y="${f(-hrH - 170)}" width="180" height="170" rx="60" fill="#0b0f13" opacity="0.75"/>`);
    out.push(`<rect x="${f(hx - 130)}" y="${f(-hrH + 20)}" width="260" height="${f(hrH - spec.beltH)}" rx="40" fill="#0b0f13" opacity="0.75"/>`);
  }
  // reflections
  const span = wx1 - wx0;
  out.push(
    `<path d="M${f(wx0 + span * 0.1)} ${f(-spec.beltH)}L${f(wx0 + span * 0.32)} ${f(-winTop - 50)}L${f(wx0 + span * 0.45)} ${f(-winTop - 50)}L${f(wx0 + span * 0.23)} ${f(-spec.beltH)}Z" fill="#ffffff" opacity="0.13"/>`,
  );
  out.push(
    `<path d="M${f(wx0 + span * 0.52)} ${f(-spec.beltH)}L${f(wx0 + span * 0.74)} ${f(-winTop - 50)}L${f(wx0 + span * 0.79)} ${f(-winTop - 50)}L${f(wx0 + span * 0.57)} ${f(-spec.beltH)}Z" fill="#ffffff" opacity="0.1"/>`,
  );
  out.push(`<rect x="${f(wx0 - 50)}" y="${f(-winTop - 60)}" width="${f(span + 100)}" height="70" fill="#ffffff" opacity="0.08"/>`);
  for (const s of spec.splits) {
    const top = winTop + 80;
    out.push(
      `<path d="M${f(s.x - s.w / 2)} ${f(-spec.beltH + 40)}L${f(s.x - s.w / 2 + s.lean)} ${f(-top)}L${f(s.x + s.w / 2 + s.lean)} ${f(-top)}L${f(s.x + s.w / 2)} ${f(-spec.beltH + 40)}Z" fill="#111214"/>`,
    );
  }
  out.push('</g>');
  // belt line trim
  out.push(
    `<path d="M${f(wx0 - 10)} ${f(-spec.beltH + 6)}L${f(wx1 + 20)} ${f(-spec.beltH + 6)}" stroke="${spec.chromeTrim ? '#dde1e6' : '#17181b'}" stroke-width="22" stroke-linecap="round"/>`,
  );

  // door shut lines
  const lineCol = shade(paint, dark ? 0.25 : -0.5);
  for (const dx of spec.doorLines) {
    let bottom = spec.sillH;
    for (const wxc of [rwx, fwx]) {
      if (Math.abs(dx - wxc) < ra + 30) {
        bottom = Math.max(bottom, wr + Math.sqrt(Math.max(0, (ra + 30) ** 2 - (dx - wxc) ** 2)));
      }
    }
    out.push(`<path d="M${f(dx)} ${f(-spec.beltH + 10)}L${f(dx - 12)} ${f(-bottom)}" stroke="${lineCol}" stroke-width="9" stroke-opacity="0.85"/>`);
  }
  // door handles
  for (const hx of spec.handles) {
    const hy = spec.beltH - 150;
    out.push(
      `<rect x="${f(hx - 100)}" y="${f(-hy - 22)}" width="200" height="44" rx="22" fill="${spec.chromeTrim ? 'url(#chrome)' : shade(paint, -0.3)}" stroke="${shade(paint, -0.55)}" stroke-width="5"/>`,
    );
  }

  // mirror at the front corner of the side glass
  const wf = spec.windows[3] ?? spec.windows[0] ?? [0, 0, 0];
  const mx = wf[0] - 250;
  const mb = spec.beltH + 20;
  out.push(
    `<path d="${roundPath(
      up([
        [mx + 150, mb - 30, 10],
        [mx + 240, mb - 30, 10],
        [mx + 230, mb + 40, 10],
        [mx + 150, mb + 40, 10],
      ]),
    )}" fill="#1a1b1e"/>`,
  );
  out.push(
    `<path d="${roundPath(
      up([
        [mx, mb + 20, 40],
        [mx + 40, mb + 170, 50],
        [mx + 200, mb + 175, 50],
        [mx + 200, mb + 15, 30],
      ]),
    )}" fill="${spec.cladding ? '#1f2023' : 'url(#hood)'}" stroke="${shade(paint, -0.45)}" stroke-width="6"/>`,
  );

  // lamps
  out.push(`<path d="${roundPath(up(spec.headlight))}" fill="url(#lamp)" stroke="#2b2d31" stroke-width="12"/>`);
  const hl = spec.headlight;
  const h0 = hl[0] ?? [0, 0, 0];
  const h1 = hl[1] ?? [0, 0, 0];
  out.push(`<path d="M${f(h0[0] + 40)} ${f(-h0[1] + 28)}L${f(h1[0] - 30)} ${f(-h1[1] + 26)}" stroke="#ffffff" stroke-width="16" stroke-linecap="round"/>`);
  out.push(`<path d="${roundPath(up(spec.taillight))}" fill="url(#tail)" stroke="#3a0b0d" stroke-width="10"/>`);
  // lower front intake + fog lamp
  out.push(
    `<path d="${roundPath(
      up([
        [L - 230, clr + 200, 30],
        [L - 40, clr + 210, 30],
        [L - 15, clr + 80, 30],
        [L - 220, clr + 70, 30],
      ]),
    )}" fill="#17181b"/>`,
  );
  out.push(`<ellipse cx="${f(L - 120)}" cy="${f(-(clr + 140))}" rx="45" ry="30" fill="#d9dee4" opacity="0.7"/>`);
  // rear reflector
  out.push(`<rect x="20" y="${f(-(clr + 190))}" width="120" height="30" rx="12" fill="#8e1016"/>`);

  // wheel arches
  for (const wx of [rwx, fwx]) {
    const dy = wr - clr + 6;
    const hc = Math.sqrt(Math.max(0, ra * ra - dy * dy));
    const arch = `M${f(wx - hc)} ${f(-clr + 6)}A${f(ra)} ${f(ra)} 0 1 1 ${f(wx + hc)} ${f(-clr + 6)}Z`;
    if (spec.cladding) {
      const rc = ra + 55;
      const hc2 = Math.sqrt(Math.max(0, rc * rc - dy * dy));
      out.push(`<path d="M${f(wx - hc2)} ${f(-clr + 6)}A${f(rc)} ${f(rc)} 0 1 1 ${f(wx + hc2)} ${f(-clr + 6)}Z" fill="#26272a"/>`);
    } else {
      out.push(`<path d="${arch}" fill="none" stroke="${shade(paint, -0.35)}" stroke-width="18"/>`);
    }
    out.push(`<path d="${arch}" fill="#0c0c0e"/>`);
    out.push(wheel(wx, -wr, wr, spec.rim, spec.rim === 'multi'));
  }

  // roof rails
  if (spec.roofRails) {
    const o = spec.outline;
    const rr0 = o[3] ?? [0, 0, 0];
    const rr1 = o[4] ?? [0, 0, 0];
    const x0 = rr0[0] + 120;
    const x1 = rr1[0] - 180;
    const h = spec.roofH + 10;
    out.push(`<rect x="${f(x0)}" y="${f(-h - 55)}" width="${f(x1 - x0)}" height="45" rx="20" fill="#1d1e21"/>`);
    out.push(`<rect x="${f(x0 + 10)}" y="${f(-h - 52)}" width="${f(x1 - x0 - 20)}" height="10" rx="5" fill="#5b5e63"/>`);
    for (const px of [x0 + 40, x1 - 80]) {
      out.push(`<rect x="${f(px)}" y="${f(-h - 30)}" width="60" height="40" rx="8" fill="#1d1e21"/>`);
    }
  }
  return out.join('');
}

// ---------------------------------------------------------------------------
// front / rear views (car space: x centred, y = -height)

function plateSvg(cx: number, cy: number, text: string, w = 520, h = 118): string {
  const t = escapeXml(text.trim().toUpperCase());
  const len = Math.max(1, [...text.trim()].length);
  const fs = Math.min(86, ((w - 90) / len) * 1.6);
  return (
    `<g transform="translate(${f(cx)} ${f(cy)})">` +
    `<rect x="${f(-w / 2)}" y="${f(-h / 2)}" width="${f(w)}" height="${f(h)}" rx="12" fill="#fbfbf8" stroke="#1b1b1b" stroke-width="8"/>` +
    `<rect x="${f(-w / 2 + 10)}" y="${f(-h / 2 + 10)}" width="44" height="${f(h - 20)}" rx="4" fill="#1d4fa3"/>` +
    `<text x="${f(-w / 2 + 32)}" y="${f(h / 2 - 22)}" font-family="sans-serif" font-size="20" font-weight="bold" fill="#ffffff" text-anchor="middle">IND</text>` +
    (t
      ? `<text x="${f(27)}" y="${f(fs * 0.36)}" font-family="sans-serif" font-size="${f(fs)}" font-weight="bold" fill="#111111" text-anchor="middle">${t}</text>`
      : '') +
    '</g>'
  );
}

function frontCar(spec: BodySpec, paint: RGB, plate: string, rear: boolean, body: CarBody): string {
  const out: string[] = [];
  const hw = spec.W / 2;
  const { clr, wr, beltH, roofH, noseH } = spec;
  const dark = luminance(paint) < 0.2;
  const tall = body !== 'hatchback' && body !== 'sedan' && body !== 'luxury';

  out.push(`<ellipse cx="0" cy="-8" rx="${f(hw * 1.25)}" ry="${f(wr * 0.34)}" fill="url(#shadow)"/>`);
  // tyres
  for (const s of [-1, 1]) {
    const x = s > 0 ? hw - 270 : -hw + 30;
    out.push(`<rect x="${f(x)}" y="${f(-wr * 1.5)}" width="240" height="${f(wr * 1.5)}" rx="50" fill="#141416"/>`);
    out.push(`<rect x="${f(x + 30)}" y="${f(-wr * 1.5)}" width="20" height="${f(wr * 1.5 - 20)}" rx="8" fill="#26272a"/>`);
  }
  // underbody
  out.push(`<rect x="${f(-hw + 250)}" y="${f(-clr - 30)}" width="${f(spec.W - 500)}" height="${f(clr * 0.85)}" fill="#0c0c0e"/>`);

  // greenhouse + glass
  const ghBottom = beltH - 10;
  const roofHalf = hw * (body === 'muv' || body === 'offroader' ? 0.78 : tall ? 0.73 : 0.68);
  out.push(
    `<path d="${roundPath(
      up([
        [-hw * 0.88, ghBottom, 30],
        [-roofHalf, roofH, 140],
        [roofHalf, roofH, 140],
        [hw * 0.88, ghBottom, 30],
      ]),
    )}" fill="url(#paintFront)"/>`,
  );
  const glassTop = roofH - (rear && (body === 'sedan' || body === 'luxury') ? 110 : 70);
  const glassBottom = beltH + (rear ? 90 : 25);
  const gTopHalf = roofHalf - 80;
  const gBotHalf = hw * 0.8;
  const glassPts: Pt[] = up([
    [-gBotHalf, glassBottom, 20],
    [-gTopHalf, glassTop, 70],
    [gTopHalf, glassTop, 70],
    [gBotHalf, glassBottom, 20],
  ]);
  const gPath = roundPath(glassPts);
  out.push(`<clipPath id="fgClip"><path d="${gPath}"/></clipPath>`);
  out.push(`<path d="${gPath}" fill="url(#glass)" stroke="#121316" stroke-width="24"/>`);
  out.push('<g clip-path="url(#fgClip)">');
  // interior hints: seats, mirror, dashboard
  const gh = glassTop - glassBottom;
  for (const s of [-1, 1]) {
    out.push(`<rect x="${f(s * hw * 0.38 - 170)}" y="${f(-glassBottom - gh * 0.75)}" width="340" height="${f(gh)}" rx="90" fill="#0a0d11" opacity="0.8"/>`);
  }
  if (!rear) {
    out.push(`<rect x="-110" y="${f(-glassTop - 10)}" width="220" height="70" rx="20" fill="#0c0e11"/>`);
    out.push(`<path d="M${f(-hw)} ${f(-glassBottom + 10)}Q0 ${f(-glassBottom - 120)} ${f(hw)} ${f(-glassBottom + 10)}Z" fill="#0b0c0f"/>`);
  }
  out.push(
    `<path d="M${f(-hw * 0.5)} ${f(-glassBottom)}L${f(-hw * 0.1)} ${f(-glassTop)}L${f(hw * 0.08)} ${f(-glassTop)}L${f(-hw * 0.32)} ${f(-glassBottom)}Z" fill="#ffffff" opacity="0.1"/>`,
  );
  out.push(
    `<path d="M${f(hw * 0.1)} ${f(-glassBottom)}L${f(hw * 0.5)} ${f(-glassTop)}L${f(hw * 0.58)} ${f(-glassTop)}L${f(hw * 0.18)} ${f(-glassBottom)}Z" fill="#ffffff" opacity="0.08"/>`,
  );
  out.push('</g>');
  if (rear && body !== 'sedan' && body !== 'luxury') {
    // rear wiper
    out.push(`<path d="M0 ${f(-glassBottom - 30)}L${f(-hw * 0.45)} ${f(-glassBottom - gh * 0.45)}" stroke="#111" stroke-width="18" stroke-linecap="round"/>`);
  } else if (!rear) {
    out.push(
      `<path d="M${f(-hw * 0.6)} ${f(-glassBottom - 20)}L${f(-hw * 0.05)} ${f(-glassBottom - 35)}M${f(hw * 0.05)} ${f(-glassBottom - 20)}L${f(hw * 0.6)} ${f(-glassBottom - 35)}" stroke="#111" stroke-width="14" stroke-linecap="round"/>`,
    );
  }
  if (spec.roofRails) {
    for (const s of [-1, 1]) {
      out.push(`<rect x="${f(s * roofHalf * 0.82 - 45)}" y="${f(-roofH - 60)}" width="90" height="75" rx="20" fill="#1d1e21"/>`);
    }
  }

  // mirrors
  for (const s of [-1, 1]) {
    const pts: Pt[] = [
      [s * hw * 0.84, beltH + 20, 20],
      [s * (hw + 120), beltH + 40, 40],
      [s * (hw + 130), beltH + 190, 40],
      [s * hw * 0.86, beltH + 170, 20],
    ];
    out.push(`<path d="${roundPath(up(pts))}" fill="${tall && spec.cladding ? '#1f2023' : 'url(#hood)'}" stroke="${shade(paint, -0.45)}" stroke-width="6"/>`);
  }

  // main body (front/rear face)
  const bodyPts: Pt[] = [
    [-hw + 40, clr, 50],
    [-hw, noseH * 0.55, 120],
    [-hw + 25, beltH, 140],
    [hw - 25, beltH, 140],
    [hw, noseH * 0.55, 120],
    [hw - 40, clr, 50],
  ];
  const bodyP = roundPath(up(bodyPts));
  out.push(`<path d="${bodyP}" fill="url(#paintFront)"/>`);
  // hood / boot top surface
  const topSurf: Pt[] = [
    [-hw + 60, beltH - 5, 60],
    [hw - 60, beltH - 5, 60],
    [hw - 45, noseH + 10, 40],
    [-hw + 45, noseH + 10, 40],
  ];
  if (beltH - noseH > 60) {
    out.push(`<path d="${roundPath(up(topSurf))}" fill="url(#hood)"/>`);
    if (!rear)
      out.push(
        `<path d="M${f(-hw * 0.3)} ${f(-beltH + 20)}L${f(-hw * 0.36)} ${f(-noseH - 20)}M${f(hw * 0.3)} ${f(-beltH + 20)}L${f(hw * 0.36)} ${f(-noseH - 20)}" stroke="${shade(paint, dark ? 0.3 : -0.2)}" stroke-width="8" stroke-opacity="0.6"/>`,
      );
  }
  out.push(`<path d="M${f(-hw + 30)} ${f(-noseH)}L${f(hw - 30)} ${f(-noseH)}" stroke="${shade(paint, 0.45)}" stroke-width="10" stroke-opacity="0.7"/>`);
  // side shading
  out.push(`<path d="${bodyP}" fill="url(#ends)"/>`);

  const plateY = -(clr + 300);
  if (!rear) {
    // headlamps
    for (const s of [-1, 1]) {
      const pts: Pt[] = [
        [s * (hw - 45), noseH - 25, 30],
        [s * hw * 0.42, noseH - 45, 30],
        [s * hw * 0.4, noseH - 150, 30],
        [s * (hw - 80), noseH - (tall ? 210 : 180), 40],
      ];
      out.push(`<ellipse cx="${f(s * hw * 0.68)}" cy="${f(-noseH + 100)}" rx="${f(hw * 0.4)}" ry="130" fill="url(#lampGlow)"/>`);
      if (body === 'offroader') {
        // round headlamps in square housings
        out.push(`<rect x="${f(s * hw * 0.7 - 120)}" y="${f(-noseH + 20)}" width="240" height="200" rx="30" fill="#1b1c1f"/>`);
        out.push(`<circle cx="${f(s * hw * 0.7)}" cy="${f(-noseH + 120)}" r="88" fill="url(#lamp)" stroke="#9aa6b2" stroke-width="10"/>`);
      } else {
        out.push(`<path d="${roundPath(up(pts))}" fill="url(#lamp)" stroke="#2b2d31" stroke-width="14"/>`);
      }
      out.push(`<circle cx="${f(s * hw * 0.72)}" cy="${f(-noseH + 105)}" r="45" fill="#eef3f8" stroke="#9aa6b2" stroke-width="8"/>`);
      out.push(
        `<path d="M${f(s * (hw - 70))} ${f(-noseH + 45)}L${f(s * hw * 0.46)} ${f(-noseH + 60)}" stroke="#ffffff" stroke-width="18" stroke-linecap="round"/>`,
      );
      // fog lamp
      out.push(`<ellipse cx="${f(s * hw * 0.74)}" cy="${f(-(clr + 150))}" rx="55" ry="38" fill="#1b1c1f"/>`);
      out.push(`<ellipse cx="${f(s * hw * 0.74)}" cy="${f(-(clr + 150))}" rx="36" ry="24" fill="#e6ebf0"/>`);
    }
    // grille
    const gTop = noseH - 45;
    const gBot = clr + 390;
    const gTopHalf2 = hw * (tall ? 0.4 : 0.36);
    const gBotHalf2 = hw * (tall ? 0.36 : 0.28);
    const grille = roundPath(
      up([
        [-gTopHalf2, gTop, 40],
        [gTopHalf2, gTop, 40],
        [gBotHalf2, gBot, 60],
        [-gBotHalf2, gBot, 60],
      ]),
    );
    out.push(`<path d="${grille}" fill="#151619" stroke="${spec.chromeTrim ? 'url(#chrome)' : '#2a2b2e'}" stroke-width="${spec.chromeTrim ? 26 : 14}"/>`);
    const slats = tall ? 5 : 3;
    if (body === 'offroader') {
      // vertical slots
      for (let i = -3; i <= 3; i++)
        out.push(`<rect x="${f(i * gTopHalf2 * 0.27 - 22)}" y="${f(-gTop + 30)}" width="44" height="${f(gTop - gBot - 60)}" rx="18" fill="#3a3c40"/>`);
    } else {
      for (let i = 1; i <= slats; i++) {
        const h = gTop - ((gTop - gBot) * i) / (slats + 1);
        const half = gTopHalf2 - ((gTopHalf2 - gBotHalf2) * i) / (slats + 1) - 30;
        out.push(
          `<path d="M${f(-half)} ${f(-h)}L${f(half)} ${f(-h)}" stroke="${spec.chromeTrim ? '#aeb4bb' : '#3a3c40'}" stroke-width="${spec.chromeTrim ? 14 : 10}"/>`,
        );
      }
    }
    out.push(`<ellipse cx="0" cy="${f(-(gTop + gBot) / 2)}" rx="80" ry="50" fill="url(#chrome)" stroke="#6d737a" stroke-width="6"/>`);
    // lower intake
    out.push(
      `<path d="${roundPath(
        up([
          [-hw * 0.55, clr + 225, 40],
          [hw * 0.55, clr + 225, 40],
          [hw * 0.48, clr + 50, 40],
          [-hw * 0.48, clr + 50, 40],
        ]),
      )}" fill="#141518"/>`,
    );
    for (let i = 1; i < 4; i++) {
      out.push(`<path d="M${f(-hw * 0.48)} ${f(-(clr + 50 + 44 * i))}L${f(hw * 0.48)} ${f(-(clr + 50 + 44 * i))}" stroke="#26282c" stroke-width="8"/>`);
    }
    if (spec.cladding) {
      out.push(
        `<path d="${roundPath(
          up([
            [-hw * 0.6, clr + 40, 30],
            [hw * 0.6, clr + 40, 30],
            [hw * 0.55, clr - 10, 20],
            [-hw * 0.55, clr - 10, 20],
          ]),
        )}" fill="#9aa0a7"/>`,
      );
    }
    out.push(plateSvg(0, plateY, plate));
  } else {
    // tail lamps
    const tTop = Math.min(beltH - 20, Math.max(noseH + 60, beltH - 80));
    for (const s of [-1, 1]) {
      const pts: Pt[] = [
        [s * (hw - 30), tTop, 30],
        [s * hw * 0.55, tTop - 15, 30],
        [s * hw * 0.57, tTop - 150, 30],
        [s * (hw - 40), tTop - 190, 40],
      ];
      out.push(`<ellipse cx="${f(s * hw * 0.78)}" cy="${f(-tTop + 90)}" rx="${f(hw * 0.45)}" ry="200" fill="url(#tailGlow)"/>`);
      out.push(`<path d="${roundPath(up(pts))}" fill="url(#tail)" stroke="#3a0b0d" stroke-width="12"/>`);
      out.push(
        `<path d="M${f(s * (hw - 70))} ${f(-tTop + 50)}L${f(s * hw * 0.6)} ${f(-tTop + 60)}" stroke="#ffd6d6" stroke-width="14" stroke-linecap="round"/>`,
      );
      out.push(`<rect x="${f(s * hw * 0.8 - 50)}" y="${f(-(clr + 120))}" width="100" height="30" rx="12" fill="#8e1016"/>`);
    }
    if (body === 'luxury' || body === 'sedan') {
      out.push(`<path d="M${f(-hw * 0.55)} ${f(-tTop + 75)}L${f(hw * 0.55)} ${f(-tTop + 75)}" stroke="#b3151c" stroke-width="16"/>`);
    }
    // tailgate / boot shut line
    out.push(
      `<path d="${roundPath(
        up([
          [-hw * 0.6, tTop + 20, 40],
          [hw * 0.6, tTop + 20, 40],
          [hw * 0.56, clr + 330, 40],
          [-hw * 0.56, clr + 330, 40],
        ]),
      )}" fill="none" stroke="${shade(paint, dark ? 0.25 : -0.45)}" stroke-width="8"/>`,
    );
    out.push(`<ellipse cx="0" cy="${f(-tTop + 60)}" rx="75" ry="45" fill="url(#chrome)" stroke="#6d737a" stroke-width="6"/>`);
    // bumper
    out.push(
      `<path d="${roundPath(
        up([
          [-hw + 60, clr + 130, 40],
          [hw - 60, clr + 130, 40],
          [hw - 90, clr - 10, 30],
          [-hw + 90, clr - 10, 30],
        ]),
      )}" fill="${spec.cladding ? '#202124' : shade(paint, -0.3)}"/>`,
    );
    out.push(`<path d="M${f(-hw * 0.7)} ${f(-(clr + 60))}L${f(hw * 0.7)} ${f(-(clr + 60))}" stroke="#0f0f11" stroke-width="22" stroke-linecap="round"/>`);
    out.push(`<ellipse cx="${f(hw * 0.55)}" cy="${f(-(clr + 10))}" rx="55" ry="28" fill="#101012" stroke="#8d9298" stroke-width="8"/>`);
    out.push(plateSvg(0, -(clr + 230), plate));
    if (spec.spare) out.push(wheel(0, -(tTop - 40), wr * 0.95, spec.rim, false));
  }
  return out.join('');
}

/**
 * A three-quarter view, front or rear: the near side (the side view, skewed), the body swept
 * towards the far side (what shows of the roof and bonnet), the windscreen or rear glass, and
 * the front or rear face (the head-on view, foreshortened). Origin: the near corner on the
 * ground; x grows to the right, y downwards. Returns the drawing and its extent.
 */
function threeQuarter(spec: BodySpec, paint: RGB, plate: string, body: CarBody, rear: boolean): { svg: string; left: number; right: number; top: number } {
  const c = 0.74; // side foreshortening
  const s = 0.6; // face foreshortening
  const ts = 0.05; // the side's ground line rising away from the near corner
  const tf = 0.17; // the face's ground line rising away from the near corner
  const { L, W, wr } = spec;
  const hw = W / 2;
  const side = rear ? [c, -ts, 0, 1, 0, 0] : [-c, ts, 0, 1, c * L, -ts * L];
  const sideMatrix = `matrix(${side.map(k).join(' ')})`;
  const onSide = (x: number, h: number): [number, number] => [side[0]! * x + side[4]!, side[1]! * x - h + side[5]!];
  const face = `matrix(${[s, tf, 0, 1, -s * hw, -tf * hw].map(k).join(' ')})`;
  const [vx, vy] = [-s * W, -tf * W];
  const out: string[] = [];
  const top = shade(paint, luminance(paint) < 0.2 ? 0.22 : 0.16);

  out.push(
    `<ellipse cx="${f((c * L + vx) / 2)}" cy="${f(vy / 2 - ts * L * 0.5)}" rx="${f(c * L * 0.62)}" ry="${f(W * 0.42)}" fill="url(#shadow)" transform="rotate(${f(rear ? -6 : 6)} ${f((c * L + vx) / 2)} ${f(vy / 2)})"/>`,
  );
  // the far wheels
  out.push(
    `<g transform="translate(${f(vx)} ${f(vy)}) ${sideMatrix}">${[spec.rwx, spec.fwx].map((x) => `<circle cx="${f(x)}" cy="${f(-wr)}" r="${f(wr)}" fill="#0d0d0f"/>`).join('')}</g>`,
  );
  // the body swept from the far side to the near one: roof, bonnet or boot lid
  const bodyPath = roundPath(up(spec.outline));
  const steps = 12;
  // Each copy's outline is stroked as wide as one step, so the copies close up without stairs.
  const stroke = (Math.hypot(vx, vy) / steps) * 1.3;
  for (let i = steps; i >= 1; i--) {
    const colour = i === steps ? shade(paint, -0.25) : top;
    out.push(
      `<path d="${bodyPath}" fill="${colour}" stroke="${colour}" stroke-width="${f(stroke)}" stroke-linejoin="round" transform="translate(${f((vx * i) / steps)} ${f((vy * i) / steps)}) ${sideMatrix}"/>`,
    );
  }
  if (spec.bed) {
    // the open load bed of a pickup
    const bed = [onSide(80, 1150), onSide(1720, 1150)];
    const [a, b] = [bed[0]!, bed[1]!];
    out.push(
      `<path d="M${f(a[0] + vx * 0.06)} ${f(a[1] + vy * 0.06)}L${f(b[0] + vx * 0.06)} ${f(b[1] + vy * 0.06)}L${f(b[0] + vx * 0.94)} ${f(b[1] + vy * 0.94)}L${f(a[0] + vx * 0.94)} ${f(a[1] + vy * 0.94)}Z" fill="#232427"/>`,
    );
  }
  // windscreen or rear glass, from the near pillar across to the far one
  // The roof's rear (or front) corner, and the point below it where the glass starts.
  const roofLine = spec.roofH - 200;
  const corner = rear ? spec.outline.findIndex((p) => p[1] >= roofLine) : spec.outline.findLastIndex((p) => p[1] >= roofLine);
  const pillar = spec.outline[corner] ?? spec.outline[0]!;
  const base = spec.outline[rear ? corner - 1 : corner + 1] ?? pillar;
  const [bx, by] = onSide(base[0] + (rear ? 60 : -60), base[1] + 10);
  const [px, py] = onSide(pillar[0] + (rear ? 160 : -160), pillar[1] - 50);
  const glass = [
    [bx + vx * 0.05, by + vy * 0.05],
    [px + vx * 0.14, py + vy * 0.14],
    [px + vx * 0.86, py + vy * 0.86],
    [bx + vx * 0.95, by + vy * 0.95],
  ];
  const glassPath = `M${glass.map(([x, y]) => `${f(x!)} ${f(y!)}`).join('L')}Z`;
  out.push(`<path d="${glassPath}" fill="url(#glass)" stroke="#121316" stroke-width="34" stroke-linejoin="round"/>`);
  out.push(
    `<path d="M${f(glass[0]![0]! + vx * 0.25)} ${f(glass[0]![1]! + vy * 0.25)}L${f(glass[1]![0]! + vx * 0.3)} ${f(glass[1]![1]! + vy * 0.3)}L${f(glass[1]![0]! + vx * 0.42)} ${f(glass[1]![1]! + vy * 0.42)}L${f(glass[0]![0]! + vx * 0.37)} ${f(glass[0]![1]! + vy * 0.37)}Z" fill="#ffffff" opacity="0.12"/>`,
  );
  // the face below the bonnet (or boot lid), foreshortened
  const faceTop = (rear ? spec.beltH : spec.noseH) + 25;
  out.push(
    `<g transform="${face}"><clipPath id="faceClip"><rect x="${f(-hw - 400)}" y="${f(-faceTop)}" width="${f(W + 800)}" height="${f(faceTop + 600)}"/></clipPath><g clip-path="url(#faceClip)">${frontCar(spec, paint, plate, rear, body)}</g></g>`,
  );
  // the near side
  out.push(`<g transform="${sideMatrix}">${sideCar(spec, paint)}</g>`);
  return { svg: out.join(''), left: vx, right: c * L, top: -(spec.roofH + tf * W + ts * L) };
}

// ---------------------------------------------------------------------------
// scenery

function clouds(seed: number, yMax: number, colour = '#ffffff', opacity = 0.85): string {
  const r = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < 5; i++) {
    const cx = r() * VIEW_W;
    const cy = 60 + r() * yMax;
    const w = 140 + r() * 200;
    out.push(`<g opacity="${f(opacity * (0.5 + r() * 0.5))}" fill="${colour}">`);
    out.push(`<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(w)}" ry="${f(w * 0.18)}"/>`);
    out.push(`<ellipse cx="${f(cx - w * 0.3)}" cy="${f(cy - w * 0.12)}" rx="${f(w * 0.4)}" ry="${f(w * 0.22)}"/>`);
    out.push(`<ellipse cx="${f(cx + w * 0.2)}" cy="${f(cy - w * 0.18)}" rx="${f(w * 0.45)}" ry="${f(w * 0.28)}"/>`);
    out.push('</g>');
  }
  return out.join('');
}

function treeLine(seed: number, y: number, colour: string, height: number, opacity = 1): string {
  const r = rng(seed);
  let d = `M0 ${f(y)}`;
  let x = 0;
  while (x < VIEW_W) {
    const w = 40 + r() * 90;
    const h = height * (0.5 + r() * 0.6);
    d += `Q${f(x + w / 2)} ${f(y - h * 2)} ${f(x + w)} ${f(y)}`;
    x += w * 0.75;
  }
  d += `L${VIEW_W} ${f(y + 20)}L0 ${f(y + 20)}Z`;
  return `<path d="${d}" fill="${colour}" opacity="${f(opacity)}"/>`;
}

function skyline(seed: number, y: number, colour: string, opacity: number, lit: boolean): string {
  const r = rng(seed);
  const out: string[] = [];
  let x = -20;
  while (x < VIEW_W) {
    const w = 60 + r() * 120;
    const h = 60 + r() * 230;
    out.push(`<rect x="${f(x)}" y="${f(y - h)}" width="${f(w)}" height="${f(h + 2)}" fill="${colour}" opacity="${f(opacity)}"/>`);
    if (lit) {
      for (let wy = y - h + 20; wy < y - 20; wy += 34) {
        for (let wx = x + 12; wx < x + w - 16; wx += 26) {
          if (r() < 0.3) out.push(`<rect x="${f(wx)}" y="${f(wy)}" width="10" height="14" fill="#ffd98a" opacity="0.55"/>`);
        }
      }
    }
    x += w + r() * 10;
  }
  return out.join('');
}

function skyGradient(id: string, top: string, bottom: string): string {
  return `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>`;
}

type Scene = { defs: string; back: string; front: string };

function customSky(background: RGB | null, fallbackTop: string, fallbackBottom: string): [string, string] {
  if (!background) return [fallbackTop, fallbackBottom];
  return [shade(background, -0.1), shade(background, 0.55)];
}

function sceneRoad(bg: RGB | null, horizon: number): Scene {
  const [top, bottom] = customSky(bg, '#4f8fd0', '#d4e6f3');
  const defs = skyGradient('sky', top, bottom) + skyGradient('road', '#5d6066', '#34363a') + skyGradient('verge', '#93ad6f', '#6f8c50');
  const back = [
    `<rect width="${VIEW_W}" height="${VIEW_H}" fill="url(#sky)"/>`,
    clouds(11, horizon - 300),
    `<path d="M0 ${horizon - 40}Q300 ${horizon - 150} 620 ${horizon - 60}T1200 ${horizon - 90}T1600 ${horizon - 50}L1600 ${horizon}L0 ${horizon}Z" fill="#8fa9b8" opacity="0.7"/>`,
    treeLine(7, horizon, '#557a54', 45),
    `<rect y="${horizon}" width="${VIEW_W}" height="70" fill="url(#verge)"/>`,
    `<rect y="${horizon + 70}" width="${VIEW_W}" height="40" fill="#c9c3b6"/>`,
    `<rect y="${horizon + 106}" width="${VIEW_W}" height="12" fill="#e9e5dc"/>`,
    `<rect y="${horizon + 118}" width="${VIEW_W}" height="${VIEW_H - horizon - 118}" fill="url(#road)"/>`,
  ].join('');
  let dashes = '';
  for (let x = -60; x < VIEW_W; x += 260) dashes += `<rect x="${x}" y="1110" width="150" height="16" fill="#f1f1ea" opacity="0.85"/>`;
  return { defs, back: back + dashes, front: '' };
}

function sceneLot(bg: RGB | null, horizon: number): Scene {
  const [top, bottom] = customSky(bg, '#e88a4a', '#fde6c4');
  const defs =
    skyGradient('sky', top, bottom) +
    skyGradient('lot', '#d9cfc1', '#a89c8c') +
    `<radialGradient id="sun" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#fff6d8"/><stop offset="0.3" stop-color="#ffe2a0" stop-opacity="0.8"/><stop offset="1" stop-color="#ffd27a" stop-opacity="0"/></radialGradient>`;
  const back = [
    `<rect width="${VIEW_W}" height="${VIEW_H}" fill="url(#sky)"/>`,
    `<circle cx="1260" cy="${horizon - 150}" r="260" fill="url(#sun)"/>`,
    clouds(23, horizon - 380, '#fff1df', 0.6),
    skyline(5, horizon, '#b86e48', 0.45, false),
    treeLine(13, horizon, '#7a5a44', 30, 0.8),
    `<rect y="${horizon}" width="${VIEW_W}" height="${VIEW_H - horizon}" fill="url(#lot)"/>`,
  ];
  for (let i = 0; i < 5; i++) {
    const y = horizon + 30 + i * i * 22 + i * 30;
    back.push(`<rect y="${f(y)}" width="${VIEW_W}" height="${f(2 + i)}" fill="#8c8172" opacity="0.5"/>`);
  }
  for (let i = -6; i <= 6; i++) {
    back.push(`<path d="M${f(800 + i * 60)} ${horizon}L${f(800 + i * 330)} ${VIEW_H}" stroke="#8c8172" stroke-opacity="0.35" stroke-width="3"/>`);
  }
  // bunting, a dealer-lot cliché
  let bunting = `<path d="M0 150Q400 230 800 160T1600 170" fill="none" stroke="#6b5a4a" stroke-width="3"/>`;
  const cols = ['#d8362f', '#f2b51d', '#2f7bd8', '#3aa757'];
  for (let i = 0; i < 20; i++) {
    const x = 30 + i * 80;
    const t = x / 800;
    const y = x <= 800 ? 150 + 160 * t * (1 - t) * 1.1 - 10 * t : 160 + 20 * ((x - 800) / 800) - 80 * ((x - 800) / 800) * (1 - (x - 800) / 800);
    bunting += `<path d="M${f(x - 18)} ${f(y)}L${f(x + 18)} ${f(y)}L${f(x)} ${f(y + 44)}Z" fill="${cols[i % 4] ?? '#d8362f'}" opacity="0.85"/>`;
  }
  return { defs, back: back.join('') + bunting, front: '' };
}

function sceneShowroom(bg: RGB | null, floorY: number): Scene {
  const [top, bottom] = bg ? [shade(bg, 0.55), shade(bg, 0.2)] : ['#f3f5f7', '#cdd3da'];
  const defs =
    skyGradient('wall', top, bottom) +
    skyGradient('floor', '#c9ced4', '#8f959c') +
    `<radialGradient id="spot" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#ffffff" stop-opacity="0.55"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient>` +
    `<linearGradient id="fade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="1"/></linearGradient>`;
  const back: string[] = [`<rect width="${VIEW_W}" height="${floorY}" fill="url(#wall)"/>`];
  for (let x = 200; x < VIEW_W; x += 400) back.push(`<rect x="${x}" y="0" width="6" height="${floorY}" fill="#000" opacity="0.05"/>`);
  for (let x = 120; x < VIEW_W; x += 460) {
    back.push(`<rect x="${x}" y="40" width="300" height="22" rx="11" fill="#ffffff"/>`);
    back.push(`<ellipse cx="${x + 150}" cy="70" rx="260" ry="60" fill="url(#spot)"/>`);
  }
  back.push(`<rect x="0" y="${floorY - 70}" width="${VIEW_W}" height="70" fill="#000" opacity="0.05"/>`);
  back.push(`<rect y="${floorY}" width="${VIEW_W}" height="${VIEW_H - floorY}" fill="url(#floor)"/>`);
  back.push(`<ellipse cx="800" cy="${floorY + 60}" rx="900" ry="160" fill="url(#spot)"/>`);
  for (let i = -8; i <= 8; i++) {
    back.push(`<path d="M${f(800 + i * 140)} ${floorY}L${f(800 + i * 420)} ${VIEW_H}" stroke="#ffffff" stroke-opacity="0.12" stroke-width="3"/>`);
  }
  return { defs, back: back.join(''), front: '' };
}

function sceneOvercast(bg: RGB | null, horizon: number): Scene {
  const [top, bottom] = customSky(bg, '#8fb4c9', '#eef3f5');
  const defs = skyGradient('sky', top, bottom) + skyGradient('tarmac', '#7b7f84', '#4e5256');
  const back: string[] = [
    `<rect width="${VIEW_W}" height="${VIEW_H}" fill="url(#sky)"/>`,
    clouds(31, horizon - 300, '#ffffff', 0.55),
    treeLine(17, horizon, '#6f8f7a', 70, 0.55),
    treeLine(19, horizon, '#4e6f55', 40),
    `<rect y="${horizon}" width="${VIEW_W}" height="${VIEW_H - horizon}" fill="url(#tarmac)"/>`,
  ];
  // parking bay lines in perspective
  for (const i of [-3, -2, -1, 1, 2, 3]) {
    const xb = 800 + i * 520;
    back.push(
      `<path d="M${f(800 + i * 150)} ${horizon + 20}L${f(xb)} ${VIEW_H}" stroke="#eeeeea" stroke-width="${Math.abs(i) === 1 ? 12 : 8}" opacity="0.8"/>`,
    );
  }
  back.push(`<path d="M0 ${horizon + 20}L${VIEW_W} ${horizon + 20}" stroke="#eeeeea" stroke-width="6" opacity="0.7"/>`);
  return { defs, back: back.join(''), front: '' };
}

function sceneDusk(bg: RGB | null, horizon: number): Scene {
  const [top, bottom] = customSky(bg, '#2a3766', '#f0936a');
  const defs = skyGradient('sky', top, bottom) + skyGradient('road', '#3c3f49', '#1c1d22');
  const back: string[] = [
    `<rect width="${VIEW_W}" height="${VIEW_H}" fill="url(#sky)"/>`,
    clouds(41, horizon - 360, '#f6b9a0', 0.35),
    skyline(9, horizon, '#3b3552', 0.9, true),
    `<rect y="${horizon}" width="${VIEW_W}" height="${VIEW_H - horizon}" fill="url(#road)"/>`,
    `<path d="M0 ${horizon + 40}L${VIEW_W} ${horizon + 40}" stroke="#6b6a78" stroke-width="6"/>`,
  ];
  for (let i = 0; i < 6; i++) {
    const y1 = horizon + 60 + i * i * 26 + i * 20;
    back.push(`<rect x="${f(800 - 6 - i * 3)}" y="${f(y1)}" width="${f(12 + i * 6)}" height="${f(20 + i * 14)}" fill="#e9d9a8" opacity="0.8"/>`);
  }
  for (const s of [-1, 1]) {
    back.push(`<path d="M${f(800 + s * 260)} ${horizon + 40}L${f(800 + s * 1500)} ${VIEW_H}" stroke="#d9d6c8" stroke-width="10" opacity="0.6"/>`);
  }
  // street lamps
  for (const x of [150, 470, 1130, 1450]) {
    back.push(`<rect x="${x - 5}" y="${horizon - 330}" width="10" height="330" fill="#2b2a3a"/>`);
    back.push(`<circle cx="${x}" cy="${horizon - 330}" r="60" fill="url(#lampGlow)"/>`);
    back.push(`<circle cx="${x}" cy="${horizon - 330}" r="12" fill="#fff3cc"/>`);
  }
  return { defs, back: back.join(''), front: '' };
}

// ---------------------------------------------------------------------------
// interior view (canvas space, right-hand drive)

/** Dashboard colours: black in small cars, two-tone in SUVs and MUVs, tan leather in luxury cars. */
const DASH: Partial<Record<CarBody, [string, string]>> = {
  luxury: ['#8a6a4a', '#3b2a1c'],
  suv: ['#4a4540', '#1a1816'],
  muv: ['#6b6258', '#2a2622'],
  'compact-suv': ['#3c3f46', '#15161a'],
};

function interior(paint: RGB, bg: RGB | null, body: CarBody): string {
  const [top, bottom] = customSky(bg, '#5c9ad3', '#e3eef6');
  const [dashTop, dashBottom] = DASH[body] ?? ['#34363b', '#101113'];
  const out: string[] = [];
  out.push(
    `<defs>${skyGradient('sky', top, bottom)}${skyGradient('dash', dashTop, dashBottom)}${skyGradient('liner', '#ddd6cb', '#b9b1a5')}` +
      `<linearGradient id="screen" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#24557c"/><stop offset="1" stop-color="#0e2236"/></linearGradient>` +
      `<linearGradient id="hoodIn" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${shade(paint, 0.35)}"/><stop offset="0.4" stop-color="${shade(paint, 0.05)}"/><stop offset="1" stop-color="${shade(paint, -0.35)}"/></linearGradient>` +
      `<radialGradient id="dial" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="#1c2a3a"/><stop offset="0.85" stop-color="#07090c"/><stop offset="1" stop-color="#3aa0ff"/></radialGradient>` +
      `<radialGradient id="chromeR" cx="0.4" cy="0.35" r="0.7"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#8d939b"/></radialGradient></defs>`,
  );
  const horizon = 560;
  out.push(`<rect width="${VIEW_W}" height="${VIEW_H}" fill="url(#sky)"/>`);
  out.push(clouds(51, 300));
  out.push(treeLine(21, horizon, '#5a7d58', 40));
  out.push(`<rect y="${horizon}" width="${VIEW_W}" height="${VIEW_H - horizon}" fill="#8aa36a"/>`);
  out.push(`<path d="M740 ${horizon}L860 ${horizon}L1700 ${VIEW_H}L-100 ${VIEW_H}Z" fill="#55585e"/>`);
  out.push(`<path d="M797 ${horizon}L803 ${horizon}L830 760L770 760Z" fill="#f0eee4" opacity="0.8"/>`);
  // hood in body colour
  out.push(`<path d="M-60 800Q800 520 1660 800L1660 900L-60 900Z" fill="url(#hoodIn)"/>`);
  out.push(`<path d="M200 705Q800 580 1400 705" fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-width="6"/>`);
  // windshield glare
  out.push(`<path d="M300 0L520 0L180 760L20 760Z" fill="#ffffff" opacity="0.07"/>`);
  // dashboard
  out.push(`<path d="M-60 780Q400 735 860 745Q880 668 980 660L1260 660Q1350 668 1370 745Q1500 752 1660 770L1660 1260L-60 1260Z" fill="url(#dash)"/>`);
  out.push(`<path d="M-60 780Q400 735 860 745Q880 668 980 660L1260 660Q1350 668 1370 745Q1500 752 1660 770" fill="none" stroke="#55585e" stroke-width="5"/>`);
  // colour-matched dash insert
  out.push(`<path d="M-60 900Q500 855 880 870L1660 895" fill="none" stroke="${shade(paint, -0.1)}" stroke-width="26"/>`);
  out.push(`<path d="M-60 890Q500 845 880 860L1660 885" fill="none" stroke="#ffffff" stroke-opacity="0.25" stroke-width="4"/>`);
  // instrument cluster (RHD)
  for (const [cx, n] of [
    [1040, 0.62],
    [1200, 0.4],
  ] as const) {
    out.push(`<circle cx="${cx}" cy="735" r="68" fill="url(#dial)" stroke="#4a4d52" stroke-width="6"/>`);
    for (let i = 0; i <= 10; i++) {
      const a = (-225 + i * 27) * (Math.PI / 180);
      out.push(
        `<path d="M${f(cx + Math.cos(a) * 50)} ${f(735 + Math.sin(a) * 50)}L${f(cx + Math.cos(a) * 60)} ${f(735 + Math.sin(a) * 60)}" stroke="#e8f0f8" stroke-width="3"/>`,
      );
    }
    const a = (-225 + n * 270) * (Math.PI / 180);
    out.push(`<path d="M${cx} 735L${f(cx + Math.cos(a) * 52)} ${f(735 + Math.sin(a) * 52)}" stroke="#ff4a3d" stroke-width="5" stroke-linecap="round"/>`);
    out.push(`<circle cx="${cx}" cy="735" r="8" fill="#2b2e33"/>`);
  }
  // infotainment screen
  out.push(`<rect x="470" y="650" width="380" height="220" rx="18" fill="#0b0c0e"/>`);
  out.push(`<rect x="484" y="664" width="352" height="192" rx="8" fill="url(#screen)"/>`);
  out.push(`<path d="M500 820L600 760L700 790L820 700M560 690L640 850M700 680L760 850" stroke="#5d8fb8" stroke-width="6" fill="none"/>`);
  out.push(`<path d="M520 840L600 760L700 790L780 735" stroke="#ff9f1c" stroke-width="8" fill="none" stroke-linecap="round"/>`);
  out.push(`<circle cx="780" cy="735" r="12" fill="#ff9f1c"/>`);
  out.push(`<rect x="484" y="664" width="352" height="24" fill="#000" opacity="0.35"/>`);
  // vents
  for (const [x, y, w] of [
    [520, 905, 120],
    [680, 905, 120],
    [60, 850, 150],
  ] as const) {
    out.push(`<rect x="${x}" y="${y}" width="${w}" height="60" rx="14" fill="#0c0d0f" stroke="#4d5056" stroke-width="4"/>`);
    for (let i = 1; i < 4; i++) out.push(`<path d="M${x + 10} ${y + i * 15}L${x + w - 10} ${y + i * 15}" stroke="#3a3c41" stroke-width="4"/>`);
  }
  // centre console buttons
  for (let i = 0; i < 5; i++) out.push(`<rect x="${530 + i * 52}" y="990" width="40" height="22" rx="6" fill="#2a2c30" stroke="#55585e" stroke-width="2"/>`);
  // steering wheel
  const sx = 1120;
  const sy = 1080;
  out.push(
    `<path d="M${sx - 250} ${sy}L${sx - 70} ${sy + 20}L${sx - 50} ${sy + 120}L${sx + 50} ${sy + 120}L${sx + 70} ${sy + 20}L${sx + 250} ${sy}" fill="none" stroke="#2b2c30" stroke-width="70" stroke-linejoin="round"/>`,
  );
  out.push(`<rect x="${sx - 110}" y="${sy - 70}" width="220" height="150" rx="50" fill="#202124" stroke="#3a3c40" stroke-width="4"/>`);
  out.push(`<ellipse cx="${sx}" cy="${sy - 2}" rx="46" ry="30" fill="url(#chromeR)"/>`);
  out.push(
    `<circle cx="${sx}" cy="${sy}" r="300" fill="none" stroke="#1b1c1f" stroke-width="66"/><circle cx="${sx}" cy="${sy}" r="333" fill="none" stroke="#3a3d42" stroke-width="3"/><circle cx="${sx}" cy="${sy}" r="267" fill="none" stroke="#3a3d42" stroke-width="3"/>`,
  );
  out.push(`<path d="M${sx - 250} ${sy - 165}A300 300 0 0 1 ${sx + 250} ${sy - 165}" fill="none" stroke="#4b4e54" stroke-width="6" stroke-dasharray="10 8"/>`);
  out.push(`<path d="M${sx - 280} ${sy - 60}A290 290 0 0 1 ${sx - 120} ${sy - 265}" fill="none" stroke="#ffffff" stroke-opacity="0.12" stroke-width="10"/>`);
  // pillars, headliner, mirror
  out.push(`<path d="M0 0L230 0L70 790L0 800Z" fill="#1d1e21"/>`);
  out.push(`<path d="M1600 0L1370 0L1530 790L1600 800Z" fill="#1d1e21"/>`);
  out.push(`<path d="M0 0L1600 0L1600 70Q800 150 0 70Z" fill="url(#liner)"/>`);
  out.push(`<path d="M1180 60L1500 40L1480 190L1210 175Z" fill="#cdc5b8" opacity="0.95"/>`);
  out.push(`<rect x="796" y="90" width="8" height="60" fill="#1d1e21"/>`);
  out.push(`<rect x="680" y="140" width="240" height="80" rx="26" fill="#141518"/>`);
  out.push(`<rect x="692" y="150" width="216" height="60" rx="18" fill="#6f7d8b"/>`);
  out.push(`<rect x="692" y="150" width="216" height="22" rx="10" fill="#ffffff" opacity="0.15"/>`);
  return out.join('');
}

// ---------------------------------------------------------------------------
// public entry point

export function drawCarSvg(opts: DrawCarOptions): string {
  const spec = specFor(opts.body, opts.model);
  const paint = parseColour(opts.colour) ?? ([138, 141, 145] as RGB);
  const bg = parseColour(opts.background);
  const plate = opts.plate ?? '';
  const raw = Number.isFinite(opts.angle) ? Math.round(opts.angle) : 0;
  const angle = ((raw % 6) + 6) % 6;

  const header = `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${VIEW_W}" height="${VIEW_H}" viewBox="0 0 ${VIEW_W} ${VIEW_H}">`;
  const footer = '</svg>';

  if (angle === 4) {
    return header + interior(paint, bg, opts.body) + footer;
  }

  const defs = commonDefs(paint, spec);

  if (angle === 3 || angle === 5) {
    const rear = angle === 5;
    const scene = rear ? sceneDusk(bg, 640) : sceneOvercast(bg, 600);
    const s = 900 / spec.W;
    const groundY = 1020;
    const car = frontCar(spec, paint, plate, rear, opts.body);
    return (
      header + `<defs>${defs}${scene.defs}</defs>` + scene.back + `<g transform="translate(800 ${groundY}) scale(${k(s)})">${car}</g>` + scene.front + footer
    );
  }

  if (angle === 1 || angle === 2) {
    // three-quarter views: the rear on the dealer lot, the front in the showroom
    const rear = angle === 1;
    const scene = rear ? sceneLot(bg, 640) : sceneShowroom(bg, 640);
    const view = threeQuarter(spec, paint, plate, opts.body, rear);
    const s = Math.min(1380 / (view.right - view.left), 720 / -view.top);
    const groundY = rear ? 1010 : 1040;
    const tx = 800 - ((view.left + view.right) / 2) * s;
    return (
      header +
      `<defs>${defs}${scene.defs}</defs>` +
      scene.back +
      `<g transform="translate(${f(tx)} ${groundY}) scale(${k(s)})">${view.svg}</g>` +
      scene.front +
      footer
    );
  }

  const car = sideCar(spec, paint);
  const scene = sceneRoad(bg, 620);
  const s = 1330 / spec.L;
  const groundY = 960;
  const width = spec.L * s;
  return (
    header +
    `<defs>${defs}${scene.defs}</defs>` +
    scene.back +
    `<g transform="translate(${f(800 - width / 2)} ${groundY}) scale(${k(s)})">${car}</g>` +
    scene.front +
    footer
  );
}
