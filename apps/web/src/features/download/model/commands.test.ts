import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cliCommands, shellWord } from './commands';

const origin = 'https://aqa.example.com:8443';

describe('cliCommands', () => {
  it('writes a GitHub Actions job that YAML reads as Node 20, the download, the run with the secret, and the JUnit upload', () => {
    const { github } = cliCommands({ origin, planId: 'plan_1', kind: 'performance' });
    const job = (parse(github) as { jobs: { aqa: { steps: Record<string, unknown>[] } } }).jobs.aqa;
    expect(job.steps).toEqual([
      { uses: 'actions/setup-node@v4', with: { 'node-version': 20 } },
      { name: 'Download aqa', run: `curl -fsSL ${origin}/downloads/aqa.mjs -o aqa.mjs` },
      {
        name: 'Run the saved plan',
        run: 'node aqa.mjs run --plan plan_1 --junit aqa-junit.xml',
        env: { AQA_SERVER: origin, AQA_TOKEN: '${{ secrets.AQA_TOKEN }}' },
      },
      {
        name: 'Keep the JUnit report',
        if: 'always()',
        uses: 'actions/upload-artifact@v4',
        with: { name: 'aqa-junit', path: 'aqa-junit.xml' },
      },
    ]);
  });

  it('writes a GitLab CI job that YAML reads, with the JUnit file as its test report; a functional plan runs with aqa test', () => {
    const { gitlab } = cliCommands({ origin: `${origin}/`, planId: 'fn 2', kind: 'functional' });
    expect(parse(gitlab)).toEqual({
      aqa: {
        image: 'node:20',
        variables: { AQA_SERVER: origin },
        script: [
          `curl -fsSL ${origin}/downloads/aqa.mjs -o aqa.mjs`,
          "node aqa.mjs test --plan 'fn 2' --junit aqa-junit.xml",
        ],
        artifacts: { when: 'always', reports: { junit: 'aqa-junit.xml' } },
      },
    });
  });

  it('keeps the token out of the terminal commands and names PLAN_ID until a plan is chosen', () => {
    const { terminal } = cliCommands({ origin, planId: null, kind: 'performance' });
    expect(terminal.split('\n')).toEqual([
      "read -rsp 'API token: ' AQA_TOKEN && export AQA_TOKEN",
      `export AQA_SERVER=${origin}`,
      `curl -fsSL ${origin}/downloads/aqa.mjs -o aqa.mjs`,
      'node aqa.mjs run --plan PLAN_ID --junit aqa-junit.xml',
    ]);
  });

  it('quotes a word so the shell reads it back unchanged', () => {
    for (const word of ['plain-id_1', "it's a plan", 'a b$c`d`', '']) {
      expect(execFileSync('sh', ['-c', `printf %s ${shellWord(word)}`], { encoding: 'utf8' })).toBe(word);
    }
  });

  it("names a team workspace as AQA_WORKSPACE in each command, so the run is of that workspace's plan", () => {
    const { terminal, github, gitlab } = cliCommands({
      origin,
      planId: 'plan_1',
      kind: 'performance',
      workspaceId: 'ws_team 1',
    });
    expect(terminal.split('\n')).toContain("export AQA_WORKSPACE='ws_team 1'");
    const job = (parse(github) as { jobs: { aqa: { steps: { env?: Record<string, string> }[] } } }).jobs.aqa;
    expect(job.steps[2]?.env).toEqual({
      AQA_SERVER: origin,
      AQA_WORKSPACE: 'ws_team 1',
      AQA_TOKEN: '${{ secrets.AQA_TOKEN }}',
    });
    expect((parse(gitlab) as { aqa: { variables: Record<string, string> } }).aqa.variables).toEqual({
      AQA_SERVER: origin,
      AQA_WORKSPACE: 'ws_team 1',
    });
    // The personal workspace needs none.
    expect(
      cliCommands({ origin, planId: 'plan_1', kind: 'performance', workspaceId: null }).terminal,
    ).not.toContain('AQA_WORKSPACE');
  });
});
