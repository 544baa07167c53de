import { describe, expect, it } from 'vitest';
import { TOOLS } from '@aqa/plan';
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
});
