import { describe, expect, it } from 'vitest';
import { LoadProfileSchema, TOOLS } from '@aqa/plan';
import { flowPlan } from '../../test/plans';
import { generateScript } from './generate-script';

describe('generateScript', () => {
  it.each(TOOLS)('writes one %s file named testplan_{tool}_{plan}', (tool) => {
    const { files } = generateScript(flowPlan('http://h.test'), tool);
    const ext = { jmeter: 'jmx', k6: 'js', locust: 'py', taurus: 'yml', soapui: 'xml' }[tool];
    expect(files.map((f) => f.name)).toEqual([`testplan_${tool}_Checkout_flow.${ext}`]);
  });

  it("uses the plan's tool, JMeter when it names none, and current for an unnamed plan", () => {
    const plan = flowPlan('http://h.test');
    expect(generateScript({ ...plan, tool: 'locust' }).files[0]?.name).toBe(
      'testplan_locust_Checkout_flow.py',
    );
    const { tool: _tool, name: _name, ...unnamed } = plan;
    expect(generateScript(unnamed).files[0]?.name).toBe('testplan_jmeter_current.jmx');
  });

  it("follows the plan's own load profile, unless the options give another", () => {
    const plan = {
      ...flowPlan('http://h.test'),
      load_profile: LoadProfileSchema.parse({ model: 'users', stages: [{ duration: '30s', target: 7 }] }),
    };
    const k6 = generateScript(plan, 'k6').files[0]!.content;
    expect(k6).toContain('ramping-vus');
    expect(k6).toContain('target: 7');
    const other = LoadProfileSchema.parse({
      model: 'arrival_rate',
      stages: [{ duration: '10s', target: 5 }],
    });
    expect(generateScript(plan, 'k6', { profile: other }).files[0]!.content).toContain(
      'ramping-arrival-rate',
    );
    const { load_profile: _profile, ...flat } = plan;
    expect(generateScript(flat, 'k6').files[0]!.content).not.toContain('scenarios');
  });
});
