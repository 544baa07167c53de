import { describe, expect, it } from 'vitest';
import { LoadProfileSchema, TOOLS } from '@aqa/plan';
import { flowPlan, weightedFlowsPlan } from '../../test/plans';
import { generateScript } from './generate-script';
import { planToSoapUi } from './plan-to-soapui';
import { planToTaurus } from './plan-to-taurus';

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

  it.each(['taurus', 'soapui'] as const)(
    'says by name that a %s script does not carry the flows, and lists them as what the tool cannot run',
    (tool) => {
      const script = generateScript(weightedFlowsPlan('http://h.test'), tool);
      const flows = script.warnings.filter((w) => w.field === 'flows');
      expect(flows).toHaveLength(1);
      expect(flows[0]!.message).toMatch(/^(Taurus|SoapUI) scripts do not carry flows yet: /);
      expect(script.unsupported).toContainEqual(flows[0]);
      // The generator says it itself, as it says every other field it cannot write.
      const own = (tool === 'taurus' ? planToTaurus : planToSoapUi)(weightedFlowsPlan('http://h.test'));
      expect(own.unsupported).toEqual(flows);
      // A plan without flows has no such warning.
      expect(generateScript(flowPlan('http://h.test'), tool).warnings.map((w) => w.field)).not.toContain(
        'flows',
      );
    },
  );

  it.each(['k6', 'locust'] as const)(
    'writes the flows into a %s script, with no warning about them',
    (tool) => {
      const script = generateScript(weightedFlowsPlan('http://h.test'), tool);
      expect(script.warnings).toEqual([]);
      expect(script.unsupported ?? []).toEqual([]);
    },
  );
});
