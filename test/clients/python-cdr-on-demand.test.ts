// python zeep against the lab's CDRonDemandService with the WSDL the CUCM publisher serves (strict
// validation, HTTPS verified against the node's certificate): get_file_list as public clients call it.
// Optional: skips, saying why, where no python3 has zeep and requests (Debian's python3-zeep is installed
// on the project's machines).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cdrDateTime } from '../../lab/cucm/cdr/repository.ts';
import { pythonAgainstLab, pythonWith } from '../helpers/python-lab.ts';

interface Results {
  all: string[];
  failed: string[];
  fault: string;
}

const found = pythonWith('python CDRonDemandService');

describe('python zeep against the lab CDRonDemandService', { skip: found.skip }, () => {
  /** An hour that is over: two hours ago. */
  const start = Math.floor(Date.now() / 3_600_000) * 60 - 120;
  const run = pythonAgainstLab<Results>(found, {
    script: 'cdr_on_demand.py',
    prefix: 'ucmcp-python-cdr-',
    args: () => [cdrDateTime(start), cdrDateTime(start + 60), cdrDateTime(start + 61)],
  });

  it('lists an hour of files as the repository holds them, and only the failed ones with in2 false', () => {
    const { lab, results } = run;
    const files = lab.state.cucm.cdr.between(start, start + 60);
    assert.deepEqual(
      results.all,
      files.map((f) => f.name),
    );
    assert.ok(results.all.length > 40);
    assert.deepEqual(
      results.failed,
      files.filter((f) => !f.sent).map((f) => f.name),
    );
  });

  it('a span over one hour is a SOAP fault', () => {
    assert.match(run.results.fault, /cannot span over 1 hour/);
  });
});
