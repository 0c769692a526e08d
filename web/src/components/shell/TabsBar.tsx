import { App, Dropdown, Tabs } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import styled from 'styled-components';
import { useMenuLabel } from './menuLabel';
import { closeTabs, type TabCommand, type TabsState } from './tabs';

const Bar = styled.div`
  padding: 6px 16px 0;
  background: ${({ theme }) => theme.colors.container};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};

  .ant-tabs-nav {
    margin: 0;
  }

  .ant-tabs-nav::before {
    border-bottom: none;
  }

  .tab-label {
    display: inline-block;
    padding: 2px 0;
    user-select: none;
  }
`;

const COMMANDS: TabCommand[] = ['current', 'right', 'left', 'all'];

interface TabsBarProps {
  state: TabsState;
  onChange: (state: TabsState) => void;
  onNavigate: (path: string) => void;
}

/**
 * The multi-tab bar (spec 2.3): a tab per opened page; a right click offers close current / right
 * / left / all; the last tab cannot be closed.
 */
export function TabsBar({ state, onChange, onNavigate }: TabsBarProps) {
  const { t } = useTranslation('shell');
  const { message } = App.useApp();
  const label = useMenuLabel();

  const run = (target: string, command: TabCommand) => {
    const result = closeTabs(state, target, command);
    if (result.refused) {
      void message.info(t(`tabs.${result.refused}`));
      return;
    }
    onChange(result.state);
    if (result.state.active && result.state.active !== state.active) onNavigate(result.state.active);
  };

  return (
    <Bar data-testid="tabs-bar">
      <Tabs
        type="editable-card"
        hideAdd
        size="small"
        activeKey={state.active ?? undefined}
        onChange={(key) => onNavigate(key)}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') run(key, 'current');
        }}
        items={state.tabs.map((tab) => ({
          key: tab.key,
          closable: true,
          label: (
            <Dropdown
              trigger={['contextMenu']}
              menu={{
                items: COMMANDS.map((command) => ({ key: command, label: t(`tabs.close.${command}`) })),
                onClick: ({ key, domEvent }) => {
                  domEvent.stopPropagation();
                  run(tab.key, key as TabCommand);
                },
              }}
            >
              <span className="tab-label" data-tab={tab.key}>
                {label(tab.name)}
              </span>
            </Dropdown>
          ),
        }))}
      />
    </Bar>
  );
}
