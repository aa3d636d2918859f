// What a scale adds, decided once from the seed and shared by every node: the sites, the people (CUCM end
// users, their Unity Connection mailboxes and IM&P accounts all come from the same list, as LDAP sync
// gives a real deployment) and the numbering. Pure: the same (scale, seed) gives the same plan.
import { Rng } from './random.ts';
import type { LabScale, ScaleSpec } from './spec.ts';
import { DEFAULT_SEED, SCALES } from './spec.ts';

export interface Site {
  /** Short code used in object names (DP_NYC, PT_NYC_DN...). */
  code: string;
  city: string;
  /** Index among the sites: its extensions are 8<index:2><4 digits>. */
  index: number;
}

export interface Person {
  userid: string;
  first: string;
  last: string;
  department: string;
  title: string;
}

export interface ScalePlan {
  scale: LabScale;
  seed: string;
  spec: ScaleSpec;
  sites: Site[];
  /** More people than any node needs; each node takes the first ones it lacks. */
  people: Person[];
}

const CITIES: [string, string][] = [
  ['NYC', 'New York'],
  ['LON', 'London'],
  ['SFO', 'San Francisco'],
  ['CHI', 'Chicago'],
  ['DAL', 'Dallas'],
  ['ATL', 'Atlanta'],
  ['BOS', 'Boston'],
  ['SEA', 'Seattle'],
  ['DEN', 'Denver'],
  ['MIA', 'Miami'],
  ['TOR', 'Toronto'],
  ['PAR', 'Paris'],
  ['FRA', 'Frankfurt'],
  ['MAD', 'Madrid'],
  ['MIL', 'Milan'],
  ['AMS', 'Amsterdam'],
  ['SYD', 'Sydney'],
  ['SIN', 'Singapore'],
  ['TYO', 'Tokyo'],
  ['HKG', 'Hong Kong'],
  ['BLR', 'Bangalore'],
  ['DUB', 'Dublin'],
  ['ZRH', 'Zurich'],
  ['STO', 'Stockholm'],
  ['OSL', 'Oslo'],
  ['WAW', 'Warsaw'],
  ['PRG', 'Prague'],
  ['VIE', 'Vienna'],
  ['LIS', 'Lisbon'],
  ['MEX', 'Mexico City'],
];

const FIRST = [
  'James',
  'Mary',
  'Robert',
  'Patricia',
  'Michael',
  'Jennifer',
  'William',
  'Linda',
  'David',
  'Elizabeth',
  'Richard',
  'Barbara',
  'Joseph',
  'Susan',
  'Thomas',
  'Jessica',
  'Charles',
  'Sarah',
  'Daniel',
  'Karen',
  'Matthew',
  'Nancy',
  'Anthony',
  'Lisa',
  'Mark',
  'Betty',
  'Paul',
  'Sandra',
  'Steven',
  'Ashley',
  'Andrew',
  'Emily',
  'Kenneth',
  'Donna',
  'Joshua',
  'Michelle',
  'Kevin',
  'Carol',
  'Brian',
  'Amanda',
  'Priya',
  'Wei',
  'Yuki',
  'Ahmed',
  'Fatima',
  'Luca',
  'Sofia',
  'Mateo',
  'Ingrid',
  'Olga',
];

const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Patel',
  'Chen',
  'Tanaka',
  'Khan',
  'Rossi',
  'Muller',
  'Kowalski',
  'Larsen',
  'Novak',
  'Silva',
];

const DEPARTMENTS: [string, string[]][] = [
  ['Sales', ['Account Executive', 'Sales Manager', 'Sales Engineer']],
  ['Engineering', ['Software Engineer', 'Engineering Manager', 'Architect']],
  ['Finance', ['Accountant', 'Financial Analyst', 'Controller']],
  ['Support', ['Support Engineer', 'Support Manager']],
  ['Marketing', ['Marketing Specialist', 'Product Marketing Manager']],
  ['Operations', ['Operations Analyst', 'Facilities Manager']],
  ['HR', ['HR Business Partner', 'Recruiter']],
  ['Legal', ['Counsel', 'Paralegal']],
];

/** Userids the demo data already holds on some node (CUCM, Unity Connection). */
const RESERVED = ['jsmith', 'mlee', 'rjones', 'abaker', 'abrown'];

export function makePlan(scale: LabScale, seed: string = DEFAULT_SEED): ScalePlan | undefined {
  const spec = SCALES[scale];
  if (!spec) return undefined;
  const sites = Array.from({ length: spec.sites }, (_, index) => {
    const [code, city] = CITIES[index % CITIES.length] as [string, string];
    const suffix = index < CITIES.length ? '' : String(Math.floor(index / CITIES.length) + 1);
    return { code: `${code}${suffix}`, city, index };
  });
  const rng = new Rng(seed, 'people');
  const taken = new Set(RESERVED);
  const wanted = Math.max(spec.endUsers, spec.cucUsers, spec.impUsersPerNode * 2);
  const people: Person[] = [];
  while (people.length < wanted) {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const base = `${first[0]}${last}`.toLowerCase();
    let userid = base;
    for (let n = 2; taken.has(userid); n++) userid = `${base}${n}`;
    taken.add(userid);
    const [department, titles] = rng.pick(DEPARTMENTS);
    people.push({ userid, first, last, department, title: rng.pick(titles) });
  }
  return { scale, seed, spec, sites, people };
}

/** The site a generated phone or person number `i` belongs to (round robin keeps sites even). */
export function siteOf(plan: ScalePlan, i: number): Site {
  return plan.sites[i % plan.sites.length] as Site;
}

/** Directory number `i` of the generated ones: `8` + site index (2 digits) + 4 digits within the site. */
export function dnOf(plan: ScalePlan, i: number): string {
  const site = siteOf(plan, i);
  const within = Math.floor(i / plan.sites.length);
  return `8${String(site.index).padStart(2, '0')}${String(within).padStart(4, '0')}`;
}
