"""Chinese labels for the pictures' tests."""

from bot.render import Labels

ZH = Labels(  # fixed here (not read from the catalog) so that translators never move a golden
    joker_big="大王", joker_small="小王", trump_badge="主", kitty_badge="底", level="级牌 {rank}",
    trump="主 {trump}", no_trump="无主", trump_not_set="未定主", trump_so_far="暂定主 {trump}",
    no_trump_so_far="暂定无主", cards="{count} 张",
    selected="已选 {count}", bury_hint="扣 {count} 张 · 底 = 底牌", hand_number="第 {number} 局",
    team_a="A 队", team_b="B 队", team_level="{team}：{rank}", computer="电脑", autopilot="托管",
    starter="庄", declarer="庄家方", declared_by="{name} 亮主",
    declared_by_many="{name} 亮主（{count} 张）",
    trump_from_kitty="翻底定主", to_play="轮到出牌", throw_failed="甩牌失败", last_trick="上一轮",
    opponents_points="闲家 {points} / {threshold}", phase_dealing="发牌 {batch}/5",
    phase_burying="扣底中",
    phase_playing="第 {number} 轮", phase_settled="本局结束", result_title="第 {number} 局结果",
    kitty="底牌", kitty_scored="底牌 {points} 分 × {multiplier} = {total} 分归闲家",
    kitty_not_scored="底牌 {points} 分：庄家赢得最后一轮，不计",
    opponents_total="闲家得分：{points}",
    result_declarers="庄家升 {levels} 级", result_swap="闲家上台",
    result_swap_up="闲家上台并升 {levels} 级", new_levels="新级别", match_won="{team} 赢得比赛！",
    next_starter="下一局庄家：{name}",
    seat_level="级 {rank}", seat_points="{points} 分", friend="朋友", opponent="闲家",
    friends_heading="找朋友", call_open="{nth}{card} ？", call_found="{nth}{card} → {name}",
    seat_ref="{number} 号",
    call_void="{nth}{card}：作废", nth_1="第一张", nth_2="第二张", nth_3="第三张", nth_4="第四张",
    phase_calling="庄家找朋友",
)
