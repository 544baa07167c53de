import { contract } from '@aqa/contract';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../auth/authenticate';
import { assertSameUser } from '../auth/scope';
import type { TextCommandService } from '../services/text-command.service';

export const textCommandRoutes: FastifyPluginCallbackZod<{ textCommands: TextCommandService }> = (
  app,
  { textCommands },
  done,
) => {
  app.route({
    ...contract.textCommands.apply,
    handler: async (request) => {
      assertSameUser(request, request.body.user_email);
      const { plan_id: planId, command } = request.body;
      return textCommands.apply(requireAuth(request).user, planId, command);
    },
  });
  done();
};
